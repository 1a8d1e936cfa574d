"""Battle Line: the rules engine (``engine.py``), pure functions on JSON-able state."""
