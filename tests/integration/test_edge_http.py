"""The local server's own answers, over real HTTP: every error is problem+json with a code, as
deployed (where API Gateway's own answers are mapped to the same codes by infra/)."""

import json
import socket
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.integration


def raw_request(url: str, request: bytes) -> tuple[int, dict, bytes]:
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def assert_problem(answer, status: int, code: str) -> dict:
    got, headers, body = answer
    assert got == status, body[:300]
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status and "Traceback" not in problem["detail"]
    return problem


def get(path: str, extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n".encode()


@pytest.mark.parametrize("path", ["/nope", "/v1/games/../players/me", "/v1/games/g_1/nothing", "/v1"])
def test_an_unknown_path_is_a_404_problem(live_server, path):
    assert_problem(raw_request(live_server.url, get(path, "Authorization: Bearer bl_live_x\r\n")), 404, "not_found")


@pytest.mark.parametrize("method", ["PATCH", "DELETE", "PUT", "TRACE", "QUERY"])
def test_a_method_the_path_does_not_take_is_a_405_problem(live_server, method):
    request = f"{method} /v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".encode()
    assert_problem(raw_request(live_server.url, request), 405, "method_not_allowed")


def test_oversized_headers_are_a_431_problem(live_server):
    assert_problem(raw_request(live_server.url, get("/v1/players/me", f"X-Big: {'a' * 70_000}\r\n")), 431,
                   "headers_too_large")
    many = "".join(f"X-H{i}: {i}\r\n" for i in range(150))
    assert_problem(raw_request(live_server.url, get("/v1/players/me", many)), 431, "headers_too_large")


def test_a_malformed_request_line_is_a_400_problem(live_server):
    assert_problem(raw_request(live_server.url, b"GET /v1/players/me two words HTTP/1.1\r\n\r\n"), 400, "bad_request")


def test_a_too_long_uri_is_a_414_problem(live_server):
    assert_problem(raw_request(live_server.url, get("/v1/games/" + "g" * 70_000)), 414, "uri_too_long")
