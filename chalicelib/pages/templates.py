"""The jinja2 templates of emails and pages. jinja2 is imported when the first page or email is
rendered: the JSON API and the schedules start without it (it costs tens of milliseconds)."""

from __future__ import annotations

from functools import cache


@cache
def environment():
    from jinja2 import Environment, PackageLoader, select_autoescape

    return Environment(loader=PackageLoader("chalicelib", "templates"),
                       autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
                       keep_trailing_newline=True)


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
