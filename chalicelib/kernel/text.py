"""Free text a client may send (names, addresses): what it may hold.

A name is shown in emails, pages, boards and other players' views, so it holds no control
character (NUL, CR, LF, tab and the other Unicode ``Cc``), no line or paragraph separator and
no bidirectional override (which can make a name read as another), and is not blank.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

# The characters a name may not hold, once: C0 and C1 controls (Unicode ``Cc``), the line and
# paragraph separators, and the bidirectional marks, embeddings, overrides and isolates. As a
# JSON Schema pattern it documents the rule in openapi.yaml; the server refuses lone
# surrogates too, which no pattern over text can name.
_REFUSED_EVERYWHERE = r"\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"  # in lines too
_REFUSED = r"\x00-\x1f" + _REFUSED_EVERYWHERE
_REFUSED_CHARACTER = re.compile(rf"[{_REFUSED}\ud800-\udfff]")
# Characters that show nothing (zero-width spaces and joiners, the word joiner, the byte order mark, the
# Hangul and Braille blanks): a name of only these, and spaces, is blank.
_INVISIBLE = r"\u200b-\u200d\u2060\ufeff\u115f\u1160\u3164\uffa0\u2800"
PLAIN_TEXT_PATTERN = rf"^[^{_REFUSED}]*[^\s{_INVISIBLE}{_REFUSED}][^{_REFUSED}]*$"
NO_CONTROLS = rf"[^{_REFUSED}]*"  # no_controls' rule, as a part of a pattern (blank allowed)


def refused_character(text: str, refused: re.Pattern[str] = _REFUSED_CHARACTER) -> str | None:
    """The first character a name (or what ``refused`` rules) may not hold, as U+XXXX with its Unicode name,
    or None."""
    found = refused.search(text)
    if found is None:
        return None
    char = found.group()
    return f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"


def no_controls(text: str) -> str:
    refused = refused_character(text)
    if refused is not None:
        raise PydanticCustomError("control_character", "may not contain {character}", {"character": refused})
    return text


_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")  # letters drawn as nothing
_SHOWS_NOTHING = ("Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me", "Cs", "Co", "Cn")  # spaces, formats, marks alone...


def _shows(char: str) -> bool:
    return char not in _BLANK_LETTERS and unicodedata.category(char) not in _SHOWS_NOTHING


def plain_text(text: str) -> str:
    """No refused character (:func:`no_controls`), and something that shows: not blank, nor made only of
    spaces, format characters (a zero-width space, a soft hyphen, a variation selector, a tag), combining
    marks with nothing to combine with, and letters drawn as nothing (the Hangul and Braille blanks): a name
    of those reads as no name."""
    no_controls(text)
    if not any(_shows(char) for char in text):
        raise PydanticCustomError("blank_text", "may not be blank")
    return text


# Text of several lines (a seat's notes): a name's rule, but tabs and line breaks are allowed.
_REFUSED_LINES = r"\x00-\x08\x0b\x0c\x0e-\x1f" + _REFUSED_EVERYWHERE
_REFUSED_IN_LINES = re.compile(rf"[{_REFUSED_LINES}\ud800-\udfff]")
LINES_PATTERN = rf"^[^{_REFUSED_LINES}]*$"


def lines_text(text: str) -> str:
    """Lines of text (tabs and line breaks allowed) with no other control character and no bidirectional
    override, which could make the text read as another wherever it is shown."""
    refused = refused_character(text, _REFUSED_IN_LINES)
    if refused is not None:
        raise PydanticCustomError("control_character", "may not contain {character}", {"character": refused})
    return text


Name = Annotated[str, Field(min_length=1, max_length=64, json_schema_extra={"pattern": PLAIN_TEXT_PATTERN}),
                 AfterValidator(plain_text)]
Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")]
# A message to the other seats (chalicelib/kernel/talk.py): one line, like a name, of up to 500 characters.
MessageText = Annotated[str, Field(min_length=1, max_length=500, json_schema_extra={"pattern": PLAIN_TEXT_PATTERN}),
                        AfterValidator(plain_text)]


def name_key(name: str) -> str:
    """A name as findPlayers matches it: Unicode compatibility forms folded (NFKC: full-width
    ``Ａｎｎ`` is ``Ann``), case folded (``ANN``, ``ann``; German ``ß`` is ``ss``), runs of spaces
    as one, no space at either end. Two names with one key are the same name to a search."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())
