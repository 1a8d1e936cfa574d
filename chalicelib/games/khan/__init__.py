"""Khan & General: the rules engine (``engine.py``), pure functions on JSON-able state; the
cards are data (``cardset.py``)."""
