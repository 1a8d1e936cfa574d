"""Tournaments and ratings: pure functions (pairings, standings, Glicko-2, the director), no I/O;
and :mod:`.service`, which stores tournaments and makes their games."""
