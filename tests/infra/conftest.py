"""Building the stack in-process packages the app with Chalice, which loads app.py with the
stage's environment variables set in this process (MAIL_TRANSPORT, TABLE_NAME...): each module
gets the environment back as it was, so no later test runs with a stack's settings."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="module", autouse=True)
def environment_restored():
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)
