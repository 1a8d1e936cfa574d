"""The jinja2 templates of emails and pages. jinja2 is imported when the first page or email is
rendered: the JSON API and the schedules start without it (it costs tens of milliseconds)."""

from __future__ import annotations

from functools import cache


@cache
def environment():
    """The templates, speaking the language set around each rendering (``i18n.speaking``): their
    words are ``{% trans %}`` blocks and ``_()`` calls (jinja2's i18n extension, new style)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from ..i18n import gettext, ngettext

    env = Environment(loader=PackageLoader("chalicelib", "templates"),
                      autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
                      keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    return env


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
