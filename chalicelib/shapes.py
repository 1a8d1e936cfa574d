"""Pydantic bases whose validators are built on first use, not at import: a Lambda cold start
pays only for the models a request touches (most response shapes are only ever documented)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

DEFERRED = ConfigDict(defer_build=True)  # for request models and type adapters


class Shape(BaseModel):
    """A documented shape (a view, a response, a request body)."""

    model_config = DEFERRED
