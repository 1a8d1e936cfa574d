"""``make check-card-set FILE=mine.json``: a designer's Khan & General card-set files, checked as
the server loads them, with every fault named by its entry."""

from __future__ import annotations

import sys
from pathlib import Path

from chalicelib.games.khan.cardset import CardSetError, load_file


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
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
