"""Mail over SMTP (SMTP_URL), and the webhook timeout."""

import socketserver
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from chalicelib.notify.mail import FileMailbox, SmtpMailer, mailer_from_environment
from chalicelib.notify.ssrf import check_url
from chalicelib.notify.webhooks import TIMEOUT_SECONDS, http_send


class TinySmtp(socketserver.StreamRequestHandler):
    """Just enough SMTP to take one message."""

    received: list[bytes] = []

    def handle(self):
        self.wfile.write(b"220 tiny ESMTP\r\n")
        while line := self.rfile.readline():
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.wfile.write(b"250 tiny\r\n")
            elif verb == b"DATA":
                self.wfile.write(b"354 go on\r\n")
                data = b""
                while (chunk := self.rfile.readline()) != b".\r\n":
                    data += chunk
                TinySmtp.received.append(data)
                self.wfile.write(b"250 queued\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


def test_smtp_url_sends_through_that_server(monkeypatch):
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), TinySmtp)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{server.server_address[1]}")
        mailer = mailer_from_environment(None)
        assert isinstance(mailer, SmtpMailer)
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "Your move"
        message.set_content("play 7R 3")
        mailer.send(message)
        got = message_from_bytes(TinySmtp.received[-1], policy=policy.default)
        assert got["Subject"] == "Your move" and got.get_content().strip() == "play 7R 3"
    finally:
        server.shutdown()
        server.server_close()


def test_without_smtp_or_ses_mail_goes_to_files(monkeypatch, tmp_path):
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.delenv("MAIL_TRANSPORT", raising=False)
    monkeypatch.setenv("MAIL_DIR", str(tmp_path))
    assert isinstance(mailer_from_environment(tmp_path), FileMailbox)


def test_a_webhook_that_does_not_answer_in_time_is_a_failed_attempt():
    class Slow(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            time.sleep(1.5)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        target = check_url(f"http://127.0.0.1:{server.server_address[1]}/hook", allow_private=True)
        result = http_send(target, b"{}", {}, timeout=0.5)
        assert result.status is None and "Timeout" in result.error
        assert TIMEOUT_SECONDS == 10.0  # what deliveries use
    finally:
        server.shutdown()
        server.server_close()
