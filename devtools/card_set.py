"""``make check-card-set FILE=mine.json``: a designer's Khan & General card-set files, checked as
the server loads them, with every fault named by its entry."""

from __future__ import annotations

import sys
from pathlib import Path

from chalicelib.games.khan.cardset import CardSet, CardSetError, load_file


def names_missing(card_set: CardSet) -> dict[str, list[str]]:
    """For each language some entry names (``names``), the entries that give no name in it."""
    entries = [("the set", card_set.names)] + [(f"factions[{f.id}]", f.names or {}) for f in card_set.factions] + \
        [(f"units[{u.id}]", u.names or {}) for u in card_set.units.values()] + \
        [(f"commands[{c.id}]", c.names or {}) for c in card_set.commands.values()]
    languages = sorted({language for _, names in entries for language in names} - {"en"})  # en: `name`
    return {language: [where for where, names in entries if language not in names] for language in languages}


def main(argv: list[str]) -> int:
    """``check FILE...``: validate card-set files and say what is wrong, entry by entry."""
    if len(argv) < 2 or argv[0] != "check":
        print("usage: python -m devtools.card_set check FILE [FILE ...]", file=sys.stderr)
        return 2
    failed = 0
    for name in argv[1:]:
        try:
            card_set = load_file(Path(name))
        except CardSetError as error:
            failed += 1
            print(f"{name}: refused")
            for problem in error.problems:
                print(f"  - {problem}")
            continue
        print(f"{name}: {card_set.id} version {card_set.version} is valid ({len(card_set.units)} unit types, "
              f"{len(card_set.commands)} commands; digest {card_set.digest})")
        for language, missing in names_missing(card_set).items():  # a hint, not a fault: English is the fallback
            print(f"  names in {language}: " + (f"none for {', '.join(missing)} (English is shown)" if missing
                                               else "every entry"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
