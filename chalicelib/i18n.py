"""Words for people, in their language: gettext.

Every sentence a person reads (emails, pages, the board, the CLI, refusals shown there) is
written in English in the code as ``_("...")`` (``ngettext`` for counts) and in the templates
as ``{% trans %}`` or ``_()``. Babel extracts them into ``chalicelib/locale/messages.pot``
(``make messages``; a test fails when the template is out of date), and a language's catalog,
``chalicelib/locale/<language>/LC_MESSAGES/messages.mo``, translates them. Which language is
spoken is set around the work for one person (``with speaking("ja"): ...``); a language without a
catalog reads English. The stdlib reads the catalogs: Babel itself stays out of the Lambda
package.
"""

from __future__ import annotations

import gettext as _gettext
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
DEFAULT = "en"

_language: ContextVar[str] = ContextVar("language", default=DEFAULT)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The language's catalog (English, the source, needs none)."""
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language.replace("-", "_")], fallback=True)


def language() -> str:
    """The language spoken now."""
    return _language.get()


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """Speak ``code`` (None: the default) in the block."""
    token = _language.set(code or DEFAULT)
    try:
        yield
    finally:
        _language.reset(token)


def in_language(code: str | None, make: Callable[[], T]) -> T:
    """What ``make`` makes, speaking ``code``."""
    with speaking(code):
        return make()


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    return translations(language()).gettext(message)


gettext = _


def N_(message: str) -> str:
    """Mark a sentence for translation where it is written (a table of words), to be translated
    where it is used (``_(table[key])``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language spoken now (its own plural rules)."""
    return translations(language()).ngettext(singular, plural, n)
