"""The Khan & General playtest lab: bot-versus-bot games on a designer's card set, and a report of
how they went (``make playtest FILE=mine.json``, ``battleline playtest mine.json``).

- ``play.py``: the games (seats alternating, each game's rng from the seed and its number), on a
  process pool whose workers register the designer's card set; the expected run time.
- ``figures.py``: the statistics of a run (win rates with Wilson intervals, endings, lengths,
  cards, first mover), from the games' records alone.
- ``report.py``: report.md and a self-contained report.html with matplotlib's charts (inline SVG).
- ``search.py`` and ``balance.py``: the balance search (``make balance``, ``battleline balance``): variants
  of the set played until their intervals meet or miss the designer's targets, the best written as
  card-set files, and a report in the designer's language.

Not part of the Lambda package (``chalicelib``): it plays through the same engine and bots, from
each seat's own view as the server's bot runner does. The lab's reports are written in English; the
balance search's report speaks the designer's language (gettext, as the CLI).
"""
