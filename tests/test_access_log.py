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
