"""Free text a client may send (names, addresses): what it may hold.

A name is shown in emails, pages, boards and other players' views, so it holds no control
character (NUL, CR, LF, tab and the other Unicode ``Cc``), no line or paragraph separator and
no bidirectional override (which can make a name read as another), and is not blank.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def refused_character(text: str) -> str | None:
    """The first character a name may not hold, as U+XXXX with its Unicode name, or None."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cs") or char in BIDI_CONTROLS:
            return f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"
    return None


def no_controls(text: str) -> str:
    refused = refused_character(text)
    if refused is not None:
        raise PydanticCustomError("control_character", "may not contain {character}", {"character": refused})
    return text


def plain_text(text: str) -> str:
    no_controls(text)
    if not text.strip():
        raise PydanticCustomError("blank_text", "may not be blank")
    return text


# The same rule as a JSON Schema pattern, for openapi.yaml and the clients generated from it
# (documentation only: plain_text is what the server checks).
_REFUSED = r"\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
PLAIN_TEXT_PATTERN = rf"^[^{_REFUSED}]*[^\s{_REFUSED}][^{_REFUSED}]*$"
Name = Annotated[str, Field(min_length=1, max_length=64, json_schema_extra={"pattern": PLAIN_TEXT_PATTERN}),
                 AfterValidator(plain_text)]
Email = Annotated[str, Field(max_length=254, pattern=r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")]
