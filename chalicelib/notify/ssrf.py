"""The SSRF guard: a webhook may only reach public addresses.

The host is resolved and every address it resolves to is checked, at registration and
again at every delivery attempt (a name can be re-pointed at an internal address after it
was registered: DNS rebinding). The delivery then connects to the address that was checked.
An IPv6 address that carries an IPv4 address (IPv4-mapped, 6to4, NAT64, Teredo) is judged
by that IPv4 address too. Only the ports of ``WEBHOOK_PORTS`` (default 443 and 80) may be
used. ``ALLOW_PRIVATE_WEBHOOKS=1`` lifts the guard (addresses and ports), for local
development only.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_PORTS = (443, 80)
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the low 32 bits
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")  # RFC 8215: local-use, never public


class UnsafeUrl(ValueError):
    """The URL may not be used for a webhook; the message says why."""


@dataclass(frozen=True)
class Target:
    """A checked webhook URL: where to connect (``address``) and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def private_webhooks_allowed() -> bool:
    return os.environ.get("ALLOW_PRIVATE_WEBHOOKS") == "1"


def allowed_ports() -> tuple[int, ...]:
    """WEBHOOK_PORTS: the ports a webhook URL may name, comma-separated (default 443 and 80)."""
    value = os.environ.get("WEBHOOK_PORTS", "").strip()
    if not value:
        return DEFAULT_PORTS
    try:
        ports = tuple(int(part) for part in value.split(","))
    except ValueError:
        raise ValueError(f"WEBHOOK_PORTS is a comma-separated list of ports, not {value!r}") from None
    if not all(0 < port < 65536 for port in ports):
        raise ValueError(f"WEBHOOK_PORTS names a port outside 1-65535: {value!r}")
    return ports


def embedded_ipv4(address: Address) -> list[tuple[str, ipaddress.IPv4Address]]:
    """The IPv4 addresses an IPv6 address carries on to, each with its form: 6to4 (2002::/16),
    NAT64 (64:ff9b::/96, the low 32 bits), Teredo (2001::/32: its server, and its client, which
    is the low 32 bits inverted)."""
    if isinstance(address, ipaddress.IPv4Address):
        return []
    found = []
    if address.sixtofour is not None:
        found.append(("a 6to4", address.sixtofour))
    if address in NAT64:
        found.append(("a NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("a Teredo server", server), ("a Teredo client", client)]
    return found


def what_is_wrong(address: Address) -> str | None:
    """What makes an address not public ("a private address"), or None when it is public."""
    checks = [
        ("an unspecified address", address.is_unspecified),
        ("a loopback address", address.is_loopback),
        ("a link-local address", address.is_link_local),
        ("a multicast address", address.is_multicast),
        ("a private address", address.is_private),  # includes IPv6 unique local addresses (fc00::/7)
        ("a reserved address", address.is_reserved),
        ("not globally reachable", not address.is_global),
    ]
    return next((name for name, hit in checks if hit), None)


def refused_reason(address: Address) -> str | None:
    """Why an address is not public, or None when it is. An IPv4-mapped IPv6 address is its IPv4
    address; one that carries traffic on to an IPv4 address (6to4, NAT64, Teredo) is refused when
    that IPv4 address would be, whatever the IPv6 address itself is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return refused_reason(address.ipv4_mapped)
    for form, inner in embedded_ipv4(address):
        wrong = what_is_wrong(inner)
        if wrong is not None:
            return f"{address} is {form} address of {inner}, which is {wrong}"
    if isinstance(address, ipaddress.IPv6Address) and address in NAT64_LOCAL:
        return f"{address} is a local-use NAT64 address"
    wrong = what_is_wrong(address)
    return None if wrong is None else f"{address} is {wrong}"


def resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise UnsafeUrl(f"{host} does not resolve ({error})") from None
    return list(dict.fromkeys(info[4][0] for info in infos))


def check_url(url: str, *, allow_private: bool | None = None) -> Target:
    """Check a webhook URL and pick the address to deliver to; raises UnsafeUrl."""
    allow = private_webhooks_allowed() if allow_private is None else allow_private
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeUrl(f"not a URL: {error}") from None
    if parts.scheme not in ("https", "http"):
        raise UnsafeUrl("a webhook URL is https://")
    if parts.scheme == "http" and not allow:
        raise UnsafeUrl("a webhook URL is https:// (http is only for local development)")
    if not parts.hostname:
        raise UnsafeUrl("a webhook URL names a host")
    if parts.username or parts.password:
        raise UnsafeUrl("a webhook URL carries no user name or password")
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    if not allow and port not in allowed_ports():
        allowed = ", ".join(map(str, allowed_ports()))
        raise UnsafeUrl(f"port {port} is not allowed for a webhook (allowed: {allowed})")
    addresses = resolve(parts.hostname, port)
    if not allow:
        for text in addresses:
            reason = refused_reason(ipaddress.ip_address(text.split("%")[0]))
            if reason is not None:
                raise UnsafeUrl(f"{parts.hostname} resolves to {reason}")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, parts.hostname, port, path, addresses[0])
