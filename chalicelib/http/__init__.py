"""The HTTP edge: the adapter (web.py), what the API takes (models.py) and answers
(responses.py), lists in pages (cursors.py), rate limits (ratelimit.py)."""
