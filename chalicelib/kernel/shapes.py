"""Pydantic bases whose validators are built on first use, not at import: a Lambda cold start
pays only for the models a request touches (most response shapes are only ever documented)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic_core import PydanticCustomError

DEFERRED = ConfigDict(defer_build=True)  # for request models and type adapters
# What a client sends is taken as JSON types, strictly: "3" is not an integer, false is not a
# number, 0.0 is not an integer (pydantic would otherwise coerce them). Queries are strings and
# are not strict.
STRICT = ConfigDict(extra="forbid", defer_build=True, strict=True)


def _json_integer(value: Any) -> Any:
    if type(value) is not int:  # noqa: E721 - bool is an int subclass, and 2.0 == 2
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


def OneOf(*choices: int) -> Any:  # noqa: N802 - a type
    """An integer that is one of ``choices`` (an enum in openapi.yaml). Strict mode alone lets a
    Literal of integers take 2.0 for 2."""
    return Annotated[Literal[choices], BeforeValidator(_json_integer)]


class Shape(BaseModel):
    """A documented shape (a view, a response, a request body)."""

    model_config = DEFERRED
