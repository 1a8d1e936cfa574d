"""An HTML page: the pages behind email links and the board page (rendered from the
templates). Light to import: the HTTP adapter answers any Page, and loads nothing more for it.

A page speaks the language spoken where it was made (``i18n.speaking``): the link's player's
``language`` preference for a page opened from an email link, else the request's
Accept-Language (``vary``: the answer then depends on that header, and says so)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from ..kernel.i18n import _, font_family, in_language, language
from ..presenting.templates import render


@dataclass
class Page:
    status: int
    title: str
    message: str
    form_action: str | None = None
    button: str | None = None
    board: str | None = None
    links: list[dict] = field(default_factory=list)
    template: str = "page.html"
    data: dict = field(default_factory=dict)  # more for the template (the board page's first view)
    code: str = ""  # a refusal's problem code, for a client that asked for JSON rather than a page
    lang: str = field(default_factory=language)  # the language it speaks: the one spoken when it was made
    vary: bool = True  # its language follows the request's Accept-Language (not a link's player)

    @classmethod
    def refused(cls, error: Exception) -> "Page":
        """The page for a link that cannot be used: 410 once expired, else 400."""
        code = getattr(error, "code", "") or "invalid_link"
        return cls(410 if code == "link_expired" else 400, _("This link cannot be used"), str(error), code=code)

    def html(self) -> str:
        return in_language(self.lang, lambda: render(self.template, **self.__dict__, font=font_family(self.lang, "'")))

    def headers(self) -> dict[str, str]:
        """Content-Language, and Vary when the language was negotiated."""
        return {"Content-Language": self.lang, **({"Vary": "Accept-Language"} if self.vary else {})}


@dataclass
class Download:
    """A file answered instead of JSON (a CSV table): its text (sent as UTF-8), media type, and the
    name a browser saves it under (Content-Disposition)."""

    body: str
    media_type: str
    filename: str
    parameters: str = ""  # more media type parameters ("header=present" for CSV: RFC 4180)

    def headers(self) -> dict[str, str]:
        extra = f"; {self.parameters}" if self.parameters else ""
        return {"Content-Type": f"{self.media_type}; charset=utf-8{extra}",
                "Content-Disposition": f'attachment; filename="{self.filename}"'}


# ---------------------------------------------------------------- a page's form

# A link page's form: a few checkboxes, a choice and a message (at most talk.MAX_LENGTH characters, each
# up to 4 bytes of UTF-8 written as 3 characters a byte: 6,000 bytes), with room to spare.
MAX_FORM_BYTES = 16384


class FormProblem(NamedTuple):
    """A POST's body that is no form of ours: too large to be the page's (``payload_too_large``), or not a
    form that can be read (``invalid_request``: another media type, bytes that are not a form). The page
    that reads forms refuses it, in its reader's language."""

    code: str


def form_fields(headers: Any, raw_body: bytes | None) -> dict[str, list[str]] | FormProblem:
    """A page's form (application/x-www-form-urlencoded), its fields by name; no body reads as no form.
    A body that is not such a form, or one too large to be one of ours, is a :class:`FormProblem`: never
    read as no form, which would play the page's defaults instead of what was chosen."""
    if not raw_body:
        return {}
    media_type = ((headers or {}).get("content-type") or "").split(";")[0].strip().lower()
    if len(raw_body) > MAX_FORM_BYTES:
        return FormProblem("payload_too_large")
    if media_type != "application/x-www-form-urlencoded":
        return FormProblem("invalid_request")
    try:
        # blank values kept (a "deck=" is no deck, not the default one); bytes that are not UTF-8 refused
        return parse_qs(raw_body.decode("ascii"), keep_blank_values=True, max_num_fields=32, errors="strict")
    except (UnicodeDecodeError, ValueError):
        return FormProblem("invalid_request")
