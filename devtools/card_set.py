"""``make check-card-set FILE=mine.json``: a designer's Khan & General card-set files, checked as
the server loads them, with every fault named by its entry."""

from __future__ import annotations

import sys
from pathlib import Path

from chalicelib.games.khan.cardset import CardSet, CardSetError, Registry, default_registry, read_file


def names_missing(card_set: CardSet) -> dict[str, list[str]]:
    """For each language some entry names (``names``), the entries that give no name in it."""
    entries = [("the set", card_set.names)] + [(f"factions[{f.id}]", f.names or {}) for f in card_set.factions] + \
        [(f"units[{u.id}]", u.names or {}) for u in card_set.units.values()] + \
        [(f"commands[{c.id}]", c.names or {}) for c in card_set.commands.values()]
    languages = sorted({language for _, names in entries for language in names} - {"en"})  # en: `name`
    return {language: [where for where, names in entries if language not in names] for language in languages}


def main(argv: list[str], registry: Registry | None = None) -> int:
    """``check FILE...``: validate card-set files as this server would load them (against the sets it
    ships and those in KHAN_CARD_SETS_DIR, and the files before them) and say what is wrong, entry by
    entry, then what is allowed but most likely a mistake."""
    if len(argv) < 2 or argv[0] != "check":
        print("usage: python -m devtools.card_set check FILE [FILE ...]", file=sys.stderr)
        return 2
    registry = registry or default_registry()
    failed = 0
    for name in argv[1:]:
        try:
            review = registry.check(read_file(Path(name)), Path(name).name)
        except CardSetError as error:
            review = None
            problems = error.problems
        else:
            problems = review.problems
        if review is None or review.card_set is None:
            failed += 1
            print(f"{name}: refused")
            for problem in problems:
                print(f"  - {problem}")
            continue
        card_set = review.card_set
        registry.add(card_set)  # a later file may not reuse its id and version either
        print(f"{name}: {card_set.id} version {card_set.version} is valid ({len(card_set.units)} unit types, "
              f"{len(card_set.commands)} commands; digest {card_set.digest})")
        for warning in review.warnings:
            print(f"  warning: {warning}")
        for language, missing in names_missing(card_set).items():  # a hint, not a fault: English is the fallback
            print(f"  names in {language}: " + (f"none for {', '.join(missing)} (English is shown)" if missing
                                               else "every entry"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
