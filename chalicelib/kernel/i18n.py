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

LOCALE_DIR = Path(__file__).parents[1] / "locale"
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


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a sentence with a plural for translation where it is written (``Words(Nn_(...), n=...)``)."""
    return (singular, plural)


QUOTES = {"zh-Hans": ("“", "”"), "ja": ("「", "」"), "vi": ("“", "”")}  # English keeps repr's 'x'


def say(sentence: object) -> str:
    """A sentence in the language spoken now: ``Words`` (the rules' refusals and descriptions, made in
    English from a marked template) are translated, their words too; anything else reads as it is."""
    template = getattr(sentence, "template", None)
    if template is None:
        quoted = getattr(sentence, "quoted", None)  # what the player wrote (games.base.Quoted)
        if quoted is not None and language() in QUOTES:
            opening, closing = QUOTES[language()]
            return opening + quoted + closing
        return str(sentence)
    words = {key: _said_word(value) for key, value in sentence.words.items()}  # type: ignore[attr-defined]
    if isinstance(template, tuple):
        text = ngettext(template[0], template[1], sentence.n)  # type: ignore[attr-defined]
    else:
        text = _(template)
    return text.format(**words) if words else text


def _said_word(value: object) -> str:
    if isinstance(value, tuple):  # a choice
        return either([say(item) for item in value])
    if isinstance(value, list):  # all of them
        return listed([say(item) for item in value])
    return say(value)


def either(items: list[str] | tuple[str, ...]) -> str:
    """A choice as the language writes it: "play or claim", "play或claim", "play hoặc claim"."""
    from babel.lists import format_list
    items = [str(item) for item in items]
    return format_list(items, style="or", locale=locale()) if items else ""


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language spoken now (its own plural rules)."""
    return translations(language()).ngettext(singular, plural, n)


# ---------------------------------------------------------------- CLDR: lists, sentences, moments, numbers
# Babel's CLDR data says how each language writes a list, a date, a duration or a number. Only the
# languages below are read (the Lambda package keeps only their CLDR files: infra/package.py).

LANGUAGES = ("en", "zh-Hans", "ja", "vi")
_FULL_STOP = {"zh-Hans": "。", "ja": "。"}  # and no space between sentences; others: ". "
_ENDS = (".", "!", "?", "。", "！", "？", ":", "：")


def locale() -> str:
    """The Babel (CLDR) locale of the language spoken now: zh-Hans -> zh_Hans."""
    return language().replace("-", "_")


def listed(items: list[str] | tuple[str, ...]) -> str:
    """Items as the language lists them: "2, 4, and 7", "2、4和7", "2、4、7", "2, 4 và 7"."""
    from babel.lists import format_list
    items = [str(item) for item in items]
    return format_list(items, locale=locale()) if items else ""


def full_width() -> bool:
    """Does the language spoken write full-width punctuation and no space between words (Chinese,
    Japanese)? Then its stop is "。", its brackets （）, its colon "：", with no space around them."""
    return language() in _FULL_STOP


def joined(items: list[str]) -> str:
    """Items in a row (cards, commands) as the language writes them: "7R, 8R" / "7R、8R"."""
    return ("、" if full_width() else ", ").join(items)


def commands(items: list[str]) -> str:
    """Commands in a row, as a reply would hold them: "play 7R 3; claim none" / "出 7R 3；不声明"."""
    return ("；" if full_width() else "; ").join(items)


def aside(text: str, aside: str) -> str:
    """A text and an aside after it in the language's brackets: "Scout (both decks are empty)",
    "侦察卡（两个牌堆都已经空了）"."""
    return text + ("" if full_width() else " ") + bracketed(aside)


def bracketed(text: str) -> str:
    """An aside in the language's brackets: full-width ones in Chinese and Japanese ("（结束回合）")."""
    return f"（{text}）" if full_width() else f"({text})"


def sentences(*parts: str) -> str:
    """Sentences written one after another as the language does: a full stop ends each that has no
    end of its own ("。" and no space in Chinese and Japanese; ". " otherwise); empty parts are left
    out."""
    stop = _FULL_STOP.get(language())
    written = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if stop:
            written.append(part if part.endswith(_ENDS) else part + stop)
        else:
            written.append(part if part.endswith(_ENDS) else part + ".")
    return ("" if stop else " ").join(written)


def clauses(parts: list[str]) -> str:
    """Clauses of one sentence, one after another: "a; b" ("a；b" in Chinese and Japanese)."""
    return ("；" if full_width() else "; ").join(part for part in parts if part)


def moment(when, zone: str | None = None) -> str:
    """A moment (datetime or ISO 8601 string) in UTC as the language writes a date and time:
    "Nov 30, 2026 12:00 UTC", "2026年11月30日 12:00 UTC", "30 thg 11, 2026 12:00 UTC"; in the IANA
    ``zone`` when given, with the zone's abbreviation then ("Nov 30, 2026 13:00 CET")."""
    from datetime import datetime, timezone

    from babel.dates import format_skeleton
    if not when:
        return ""
    if isinstance(when, str):
        try:
            when = datetime.fromisoformat(when.replace("Z", "+00:00"))
        except ValueError:
            return when
    place = timezone.utc
    if zone and zone != "UTC":
        from zoneinfo import ZoneInfo
        place = ZoneInfo(zone)
    when = when.astimezone(place)
    day = format_skeleton("yMMMd", when, tzinfo=place, locale=locale())
    time = format_skeleton("Hm", when, tzinfo=place, locale=locale())
    return f"{day} {time} {when.tzname() if place is not timezone.utc else 'UTC'}"


_UNITS = (("duration-day", 86400), ("duration-hour", 3600), ("duration-minute", 60))


def duration(seconds: float, parts: int = 2) -> str:
    """A length of time as people say it, in at most ``parts`` units: "2 days, 3 hours", "2天3小时",
    "5時間10分" (CLDR writes "5 時間 10 分"; Japanese text sets no spaces), "40 phút"; under a minute,
    "less than a minute"."""
    from babel import Locale
    from babel.lists import format_list
    from babel.units import format_unit
    rest, said = max(0, int(seconds)), []
    cldr = Locale.parse(locale())
    for unit, size in _UNITS:
        count, rest = divmod(rest, size)
        if count or said:
            if count:  # CLDR's long form; where a language has only the short one, Babel writes the unit's id
                written = format_unit(count, unit, length="long", locale=cldr)
                said.append(written if unit not in written else format_unit(count, unit, length="short", locale=cldr))
            if len(said) == parts or said and unit == "duration-hour" and count == 0:
                break
    if not said:
        return _("less than a minute")
    written = format_list(said, style="unit", locale=cldr)
    return written.replace(" ", "").replace("\u00a0", "") if language() == "ja" else written


def number(value: float, digits: int = 0) -> str:
    """A number as the language writes it (grouping and decimal marks): 1,523.4 / 1.523,4."""
    from babel.numbers import format_decimal
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale())


def percent(share: float) -> str:
    """A share as the language writes a percentage: 62%, 62 %."""
    from babel.numbers import format_percent
    return format_percent(share, locale=locale())


def negotiate(accept_language: str | None) -> str:
    """The language of ours an HTTP Accept-Language header asks for first (RFC 9110 quality values;
    "zh", "zh-CN" and "zh-Hans-CN" read Simplified Chinese); English when it names none of ours."""
    asked = []
    for index, item in enumerate((accept_language or "").split(",")):
        tag, _sep, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            asked.append((-quality, index, tag.strip().lower()))
    for _q, _i, tag in sorted(asked):
        for code in LANGUAGES:
            if tag.split("-")[0] == code.split("-")[0].lower():  # zh-Hant too: it reads Simplified best
                return code
    return DEFAULT


# ---------------------------------------------------------------- fonts: what draws each language
# Font stacks that render each language on common systems (macOS and iOS, Windows, Android, Linux
# with Noto or WenQuanYi): Chinese and Japanese need a CJK font of their own glyph forms (the
# Japanese stack prefers Japanese fonts, whose kanji differ from Simplified Chinese hanzi), and
# Vietnamese a font with its stacked diacritics (ế, ặ, ỡ). The board page's CSS says the same with
# :lang() selectors (templates/board.css); SVG boards and inline-styled pages use font_family().

FONTS = {
    "en": '"DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
    "zh-Hans": ('"PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", '
                '"Source Han Sans SC", "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", system-ui, sans-serif'),
    "ja": ('"Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic", "YuGothic", Meiryo, "Noto Sans CJK JP", '
           '"Noto Sans JP", "Source Han Sans JP", "IPAexGothic", "TakaoPGothic", "WenQuanYi Micro Hei", '
           'system-ui, sans-serif'),
    "vi": ('"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", system-ui, sans-serif'),
}


def font_family(code: str | None = None, quote: str = '"') -> str:
    """The font stack of ``code`` (None: the language spoken), for CSS; ``quote="'"`` for an SVG
    or HTML attribute written in double quotes."""
    stack = FONTS.get(code or language(), FONTS[DEFAULT])
    return stack.replace('"', quote)


def series(items: list[str] | tuple[str, ...]) -> str:
    """Items one after another with no "and", as the language separates them in a row of figures:
    "you 7 cards, Bob 7 cards", "你 7 张、Bob 7 张" (CLDR's list middle pattern)."""
    from babel import Locale
    middle = Locale.parse(locale()).list_patterns["standard"]["middle"]
    written = ""
    for item in (str(i) for i in items):
        written = item if not written else middle.format(written, item)
    return written


def svg_font_family() -> str:
    """The font stack of the language spoken, for an SVG ``font-family="..."`` attribute."""
    return font_family(quote="'")
