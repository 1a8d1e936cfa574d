"""Tournaments and ratings: pure functions (pairings, standings, Glicko-2), no I/O."""
