"""The SSRF guard refuses every URL that can reach a non-public address."""

import socket

import pytest

from chalicelib.notify.ssrf import UnsafeUrl, check_url


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


def test_a_hostname_resolving_to_a_private_address_is_refused(monkeypatch):
    def fake(host, port, *args, **kwargs):
        addresses = {"rebind.example.com": ["93.184.216.34", "10.1.2.3"], "good.example.com": ["93.184.216.34"]}
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses[host]]

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    with pytest.raises(UnsafeUrl, match="10.1.2.3 is a private address"):
        check_url("https://rebind.example.com/hook", allow_private=False)
    target = check_url("https://good.example.com:8443/hook?x=1", allow_private=False)
    assert (target.address, target.port, target.path, target.host) == ("93.184.216.34", 8443, "/hook?x=1", "good.example.com")


def test_private_addresses_are_allowed_only_when_asked_for_local_development():
    target = check_url("http://127.0.0.1:9999/hook", allow_private=True)
    assert target.address == "127.0.0.1" and target.scheme == "http"
