"""The SSRF guard: a webhook may only reach public addresses.

The host is resolved and every address it resolves to is checked, at registration and
again at every delivery (a name can be re-pointed at an internal address after it was
registered: DNS rebinding). The delivery then connects to the address that was checked.
``ALLOW_PRIVATE_WEBHOOKS=1`` lifts the guard, for local development only.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


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


def refused_reason(address: Address) -> str | None:
    """Why an address is not public, or None when it is."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return refused_reason(address.ipv4_mapped)
    checks = [
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),  # includes IPv6 unique local addresses (fc00::/7)
        ("reserved", address.is_reserved),
        ("not globally reachable", not address.is_global),
    ]
    return next((f"{address} is a {name} address" if not name.startswith("not") else f"{address} is {name}"
                 for name, hit in checks if hit), None)


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
    port = port or (443 if parts.scheme == "https" else 80)
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
