"""Sending email: SES v2 in AWS, SMTP when SMTP_URL is set, else a file mailbox (var/mail). What an
email is (its headers, words and templates) is built in :mod:`.email`; a transport only makes sure
it says it is a machine's (``automatic``) and sends it."""

from __future__ import annotations

import os
import smtplib
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol
from urllib.parse import unquote, urlsplit

from .email import automatic


class Mailer(Protocol):
    def send(self, message: EmailMessage) -> None: ...


class FileMailbox:
    """Each message as an .eml file: what `make serve` does by default."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def send(self, message: EmailMessage) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns()}-{message['X-Battleline-Message'] or 'mail'}.eml"
        (self.directory / name).write_bytes(bytes(automatic(message)))


class SmtpMailer:
    """SMTP_URL: smtp://user:password@host:port (or smtps:// for TLS from the start)."""

    def __init__(self, url: str) -> None:
        self.url = urlsplit(url)

    def send(self, message: EmailMessage) -> None:
        secure = self.url.scheme == "smtps"
        connect = smtplib.SMTP_SSL if secure else smtplib.SMTP
        with connect(self.url.hostname, self.url.port or (465 if secure else 25), timeout=30) as smtp:
            if self.url.username:
                if not secure:
                    smtp.starttls()
                smtp.login(unquote(self.url.username), unquote(self.url.password or ""))
            smtp.send_message(automatic(message))


class SesMailer:
    """SES v2; with a configuration set (MAIL_CONFIGURATION_SET), whose events (bounces, complaints)
    reach the mail_events function."""

    def __init__(self, client, configuration_set: str = "") -> None:
        self.client = client
        self.configuration_set = configuration_set

    def send(self, message: EmailMessage) -> None:
        extra = {"ConfigurationSetName": self.configuration_set} if self.configuration_set else {}
        self.client.send_email(Content={"Raw": {"Data": bytes(automatic(message))}}, **extra)


def mailer_from_environment(root: Path) -> Mailer | None:
    """SMTP_URL, or MAIL_TRANSPORT=ses, or none (MAIL_TRANSPORT=none: no email at all), else files."""
    if os.environ.get("MAIL_TRANSPORT") == "none":
        return None
    if os.environ.get("SMTP_URL"):
        return SmtpMailer(os.environ["SMTP_URL"])
    if os.environ.get("MAIL_TRANSPORT") == "ses":
        import boto3

        return SesMailer(boto3.client("sesv2"), os.environ.get("MAIL_CONFIGURATION_SET", ""))
    return FileMailbox(Path(os.environ.get("MAIL_DIR", root / "var" / "mail")))
