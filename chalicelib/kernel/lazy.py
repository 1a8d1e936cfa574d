"""Modules loaded on first use (issue 39 item 5, a cold start's first request): a service that
needs a heavy module for some of its calls only names it with :func:`module`, and the module is
executed when one of its attributes is first read, not when the service is imported.

The standard library's :class:`importlib.util.LazyLoader`, as the importlib documentation's
"Implementing lazy imports" shows it; a module already imported is returned as it is.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def module(name: str) -> ModuleType:
    """The module ``name`` (absolute), executed on first attribute access."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    found = importlib.util.module_from_spec(spec)
    sys.modules[name] = found
    loader.exec_module(found)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, found)
    return found
