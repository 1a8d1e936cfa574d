"""The local server's access log (make serve) holds no secret: a link's token plays a move or shows a seat's
hand, so its line names the route as API Gateway's log does (``/v1/links/{token}``), and a board link's
``seat=`` is left out."""

from __future__ import annotations

from devtools.local_api import redacted
from tests.conftest import LINKS


def test_the_access_log_line_leaves_out_every_links_secret():
    step = LINKS.step_url("g_0123456789abcdef", 1, 4, {"type": "draw", "deck": "troop"})
    board = LINKS.board_url("g_0123456789abcdef", 1)
    unsubscribe = LINKS.unsubscribe_url("p_0123456789abcdef")
    answer = LINKS.answer_url("g_0123456789abcdef", 2, "p_0123456789abcdef", "accept")
    for url in (step, board, unsubscribe, answer):
        path = url.split("http://testserver", 1)[1]
        secret = path.rsplit("/", 1)[1].split("=")[-1]
        line = redacted(f"POST {path} HTTP/1.1")
        assert secret not in line and len(secret) > 20, (url, line)
        assert line.startswith("POST /v1/") and line.endswith(" HTTP/1.1")
    assert redacted(f"GET {step.split('http://testserver', 1)[1]} HTTP/1.1") == "GET /v1/links/{token} HTTP/1.1"
    assert redacted("GET /v1/games/g_1?wait=30 HTTP/1.1") == "GET /v1/games/g_1?wait=30 HTTP/1.1"


def test_a_token_spelt_another_way_is_left_out_too():
    """The router takes a path percent-encoded, with its scheme and host, with doubled slashes, and a query's
    name percent-encoded: each spelling of a token is left out of the line."""
    token = "eyJnIjoiZ18wMTIzNDU2Nzg5YWJjZGVmIiwicyI6MX0.awvm5Q.v1LXI__KEi3F-wYXeSRNatn07PY"
    for target in (f"/v1/games/g_1/board?%73eat={token}", f"/v1/games/g_1/replay?v=1&se%61t={token}",
                   f"//v1/links/{token}", f"http://127.0.0.1:8000/v1/links/{token}", f"/v1/LINKS/{token}",
                   f"/v1/links//{token}", f"/nothing/{token}"):
        line = redacted(f"GET {target} HTTP/1.1")
        assert token not in line and token[:20] not in line, line
