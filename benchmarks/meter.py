"""DynamoDB's item-size rules, as AWS states them in "DynamoDB item sizes and formats"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html),
and the rounding of sizes to read and write units. A capacity meter is to be built on them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

KB = 1024
READ_UNIT = 4 * KB  # one strongly consistent read of up to 4 KB
WRITE_UNIT = KB  # one standard write of up to 1 KB

# ------------------------------------------------------------------ item sizes


def number_size(text: str) -> int:
    """Bytes of a number: 1 byte per two significant digits, plus 1 (leading and trailing zeroes
    trimmed; 0 counts as one digit)."""
    mantissa = text.strip().lstrip("+-").lower().split("e")[0]
    digits = mantissa.replace(".", "").strip("0")
    return math.ceil((len(digits) or 1) / 2) + 1


def _raw_bytes(value: Any) -> int:
    return len(value.encode()) if isinstance(value, str) else len(value)


def value_size(value: Mapping[str, Any]) -> int:
    """Bytes of one attribute value in the low-level form ({"S": ...}, {"N": ...}, ...), without its name."""
    (kind, raw), = value.items()
    if kind == "S":
        return len(raw.encode())
    if kind == "N":
        return number_size(raw)
    if kind == "B":
        return _raw_bytes(raw)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(value_size(element) + 1 for element in raw)
    if kind == "M":
        return 3 + sum(len(name.encode()) + value_size(element) + 1 for name, element in raw.items())
    if kind == "SS":
        return sum(len(element.encode()) for element in raw)
    if kind == "NS":
        return sum(number_size(element) for element in raw)
    if kind == "BS":
        return sum(_raw_bytes(element) for element in raw)
    raise ValueError(f"unknown DynamoDB type {kind!r}")


def attribute_size(name: str, value: Mapping[str, Any]) -> int:
    """Bytes DynamoDB counts for one attribute: its name (UTF-8) plus its value."""
    return len(name.encode()) + value_size(value)


def item_size(item: Mapping[str, Any] | None) -> int:
    """Bytes of an item in the low-level form; 0 for no item."""
    return sum(attribute_size(name, value) for name, value in (item or {}).items())


def read_units(size: int, *, consistent: bool) -> float:
    """Units of one read of ``size`` bytes: per 4 KB, at least one; half when eventually consistent."""
    units = max(1, math.ceil(size / READ_UNIT))
    return float(units) if consistent else units / 2


def write_units(size: int) -> float:
    """Units of one standard write of ``size`` bytes: per 1 KB, at least one."""
    return float(max(1, math.ceil(size / WRITE_UNIT)))
