"""The SSRF guard refuses every URL that can reach a non-public address."""

import ipaddress

import pytest

from chalicelib.notify.ssrf import UnsafeUrl, check_url

from .helpers import FakeDns

PUBLIC = "93.184.216.34"
PRIVATE_IPV4 = ["10.0.0.1", "127.0.0.1", "169.254.169.254", "192.168.1.1", "172.16.3.4", "100.64.0.1", "0.0.0.0"]


@pytest.fixture(autouse=True)
def default_ports(monkeypatch):
    monkeypatch.delenv("WEBHOOK_PORTS", raising=False)


@pytest.fixture
def dns(monkeypatch):
    """A fake resolver: ``dns[name] = [addresses]``."""
    return FakeDns(monkeypatch).answers


def six_to_four(ipv4: str) -> str:
    """The 6to4 address (2002:V4ADDR::/48) of an IPv4 address."""
    return str(ipaddress.IPv6Address((0x2002 << 112) | (int(ipaddress.IPv4Address(ipv4)) << 80) | 1))


def nat64(ipv4: str) -> str:
    """The NAT64 well-known-prefix address (64:ff9b::/96) of an IPv4 address."""
    return str(ipaddress.IPv6Address(int(ipaddress.IPv6Address("64:ff9b::")) | int(ipaddress.IPv4Address(ipv4))))


def teredo(client: str, server: str = "65.54.227.120") -> str:
    """A Teredo address (2001::/32): the server's IPv4 address, flags and port, then the
    client's IPv4 address with every bit inverted (RFC 4380)."""
    inverted = ~int(ipaddress.IPv4Address(client)) & 0xFFFFFFFF
    return str(ipaddress.IPv6Address((0x20010000 << 96) | (int(ipaddress.IPv4Address(server)) << 64)
                                     | (0x8000 << 48) | (0x63BF << 32) | inverted))


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hook",
        "https://127.1.2.3/hook",
        "https://[::1]/hook",
        "https://0.0.0.0/hook",
        "https://[::]/hook",
        "https://10.0.0.5/hook",
        "https://172.16.3.4/hook",
        "https://192.168.1.1/hook",
        "https://169.254.169.254/latest/meta-data/",  # cloud metadata
        "https://[fe80::1]/hook",  # IPv6 link-local
        "https://[fd00::1]/hook",  # IPv6 unique local
        "https://[fc00::1]/hook",
        "https://224.0.0.1/hook",  # multicast
        "https://[ff02::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",  # IPv4-mapped IPv6
        "https://[::ffff:169.254.169.254]/hook",
        "https://2130706433/hook",  # 127.0.0.1 written as a decimal number
        "https://0x7f000001/hook",  # ... as hex
        "https://0177.0.0.1/hook",  # ... in octal
        "https://017700000001/hook",
        "https://127.1/hook",  # short form
        "https://100.64.0.1/hook",  # carrier-grade NAT
        "https://localhost/hook",  # a name that resolves to loopback
        "http://example.com/hook",  # http outside local development
        "ftp://example.com/hook",
        "https://user:pw@example.com/hook",
        "not a url",
        "https:///nohost",
    ],
)
def test_refused_urls(url):
    with pytest.raises(UnsafeUrl):
        check_url(url, allow_private=False)


def test_a_hostname_resolving_to_a_private_address_is_refused(dns):
    dns.update({"rebind.example.com": [PUBLIC, "10.1.2.3"], "good.example.com": [PUBLIC]})
    with pytest.raises(UnsafeUrl, match="10.1.2.3 is a private address"):
        check_url("https://rebind.example.com/hook", allow_private=False)
    target = check_url("https://good.example.com/hook?x=1", allow_private=False)
    assert (target.address, target.port, target.path, target.host) == (PUBLIC, 443, "/hook?x=1", "good.example.com")


# ---------------------------------------------------------------- ports

def test_webhook_port_22_is_refused(dns):
    dns["hooks.example.com"] = [PUBLIC]
    with pytest.raises(UnsafeUrl, match="port 22 is not allowed"):
        check_url("https://hooks.example.com:22/hook", allow_private=False)
    assert check_url("https://hooks.example.com:443/hook", allow_private=False).port == 443


def test_webhook_port_0_is_refused_not_taken_for_the_default(dns):
    dns["hooks.example.com"] = [PUBLIC]
    with pytest.raises(UnsafeUrl, match="port 0 is not allowed"):
        check_url("https://hooks.example.com:0/hook", allow_private=False)


@pytest.mark.parametrize("port", [25, 6379, 8080, 8443, 65535])
def test_webhook_ports_other_than_443_and_80_are_refused(dns, port):
    dns["hooks.example.com"] = [PUBLIC]
    with pytest.raises(UnsafeUrl, match=f"port {port} is not allowed"):
        check_url(f"https://hooks.example.com:{port}/hook", allow_private=False)
    assert check_url("https://hooks.example.com:80/hook", allow_private=False).port == 80


def test_webhook_ports_setting_allows_more_ports_for_development(dns, monkeypatch):
    dns["hooks.example.com"] = [PUBLIC]
    monkeypatch.setenv("WEBHOOK_PORTS", "443,80,8443")
    assert check_url("https://hooks.example.com:8443/hook", allow_private=False).port == 8443
    with pytest.raises(UnsafeUrl, match=r"port 22 is not allowed for a webhook \(allowed: 443, 80, 8443\)"):
        check_url("https://hooks.example.com:22/hook", allow_private=False)
    monkeypatch.setenv("WEBHOOK_PORTS", "443")
    with pytest.raises(UnsafeUrl, match="port 80"):
        check_url("https://hooks.example.com:80/hook", allow_private=False)


# ---------------------------------------------------------------- IPv6 addresses that carry IPv4

@pytest.mark.parametrize("ipv4", PRIVATE_IPV4)
def test_6to4_address_embedding_private_ipv4_is_refused(ipv4):
    address = six_to_four(ipv4)
    assert address.startswith("2002:")
    with pytest.raises(UnsafeUrl, match=f"6to4 address of {ipv4}, which is"):
        check_url(f"https://[{address}]/hook", allow_private=False)


@pytest.mark.parametrize("ipv4", PRIVATE_IPV4)
def test_nat64_address_embedding_private_ipv4_is_refused(ipv4):
    for written in (nat64(ipv4), f"64:ff9b::{ipv4}"):
        with pytest.raises(UnsafeUrl, match=f"NAT64 address of {ipv4}, which is"):
            check_url(f"https://[{written}]/hook", allow_private=False)


def test_local_use_nat64_address_is_refused():
    with pytest.raises(UnsafeUrl, match="local-use NAT64"):
        check_url("https://[64:ff9b:1::5db8:d822]/hook", allow_private=False)


@pytest.mark.parametrize("ipv4", PRIVATE_IPV4)
def test_teredo_address_embedding_private_ipv4_is_refused(ipv4):
    # The client's address is stored inverted: 10.0.0.1 is written f5ff:fffe.
    with pytest.raises(UnsafeUrl, match=f"Teredo client address of {ipv4}, which is"):
        check_url(f"https://[{teredo(ipv4)}]/hook", allow_private=False)


def test_teredo_client_is_read_inverted_as_in_rfc_4380():
    # RFC 4380's example: server 65.54.227.120, client 192.0.2.45 (documentation, not public).
    with pytest.raises(UnsafeUrl, match="Teredo client address of 192.0.2.45"):
        check_url("https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", allow_private=False)
    assert teredo("192.0.2.45") == "2001:0:4136:e378:8000:63bf:3fff:fdd2"


def test_a_hostname_resolving_to_an_ipv6_address_embedding_private_ipv4_is_refused(dns):
    dns.update({"sixtofour.example.com": [six_to_four("10.0.0.1")], "nat64.example.com": [nat64("127.0.0.1")],
                "teredo.example.com": [teredo("169.254.169.254")]})
    for name, ipv4 in (("sixtofour", "10.0.0.1"), ("nat64", "127.0.0.1"), ("teredo", "169.254.169.254")):
        with pytest.raises(UnsafeUrl, match=f"address of {ipv4}, which is"):
            check_url(f"https://{name}.example.com/hook", allow_private=False)


def test_private_addresses_are_allowed_only_when_asked_for_local_development():
    target = check_url("http://127.0.0.1:9999/hook", allow_private=True)
    assert target.address == "127.0.0.1" and target.scheme == "http"
