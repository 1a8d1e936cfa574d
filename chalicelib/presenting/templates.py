"""The jinja2 templates of emails and pages. jinja2 is imported when the first page or email is
rendered: the JSON API and the schedules start without it (it costs tens of milliseconds)."""

from __future__ import annotations

from functools import cache


@cache
def environment():
    """The templates, speaking the language set around each rendering (``i18n.speaking``): their
    words are ``{% trans %}`` blocks and ``_()`` calls (jinja2's i18n extension, new style)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    from ..kernel.i18n import gettext, ngettext

    env = Environment(loader=PackageLoader("chalicelib", "templates"),
                      autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
                      keep_trailing_newline=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext, ngettext, newstyle=True)
    env.globals.update(language=language, font_stack=font_stack, listed=listed, stop=stop, gap=gap)
    env.filters["spaced"] = spaced
    env.filters["bracketed"] = bracketed
    return env


# The fonts of emails, by the reader's language: ones that draw its script on common systems (macOS and
# iOS, Windows, Android and Linux), the system's own first; Arial draws Vietnamese's letters.
FONT_STACKS = {
    "zh-Hans": "system-ui,-apple-system,'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC',"
               "'Noto Sans SC','Source Han Sans SC','WenQuanYi Zen Hei',Arial,sans-serif",
    "ja": "system-ui,-apple-system,'Hiragino Sans','Hiragino Kaku Gothic ProN','Yu Gothic','Meiryo',"
          "'Noto Sans CJK JP','Noto Sans JP',Arial,sans-serif",
    "vi": "Arial,'Segoe UI',Roboto,'Helvetica Neue','Noto Sans',sans-serif",
}


def language() -> str:
    """The language spoken now: the ``lang`` of an email's HTML."""
    from ..kernel.i18n import language as spoken

    return spoken()


def spaced(label: str) -> str:
    """A label and the space before what it labels: none after a full-width colon ("你的手牌：7R")."""
    return label if label.endswith(("：", "）", "」")) else label + " "


def bracketed(text: str) -> str:
    """An aside in the language's brackets (``i18n.bracketed``)."""
    from ..kernel.i18n import bracketed as in_brackets

    return in_brackets(text)


def listed(items) -> str:
    """Items as the language lists them (``i18n.listed``)."""
    from ..kernel.i18n import listed as cldr_listed

    return cldr_listed(list(items))


def gap() -> str:
    """The space between two sentences or pieces set side by side: none in Chinese and Japanese."""
    from ..kernel.i18n import full_width

    return "" if full_width() else " "


def stop() -> str:
    """The full stop of the language spoken now."""
    from ..kernel.i18n import full_width

    return "。" if full_width() else "."


def font_stack() -> str:
    """The font-family of an email in the language spoken now."""
    return FONT_STACKS.get(language(), "Arial,Helvetica,sans-serif")


def render(name: str, **context) -> str:
    return environment().get_template(name).render(**context)
