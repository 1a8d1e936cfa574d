"""An HTML page: the pages behind email links and the board page (rendered from the
templates). Light to import: the HTTP adapter answers any Page, and loads nothing more for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .templates import render


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

    @classmethod
    def refused(cls, error: Exception) -> "Page":
        """The page for a link that cannot be used: 410 once expired, else 400."""
        code = getattr(error, "code", "") or "invalid_link"
        return cls(410 if code == "link_expired" else 400, "This link cannot be used", str(error), code=code)

    def html(self) -> str:
        return render(self.template, **self.__dict__)
