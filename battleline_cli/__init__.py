"""The `battleline` command: play from a terminal over the HTTP API (main.py)."""
