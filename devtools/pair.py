"""Pair the next round of a TRF-16 file with our Dutch system, printed as FIDE-endorsed engines
print it (the number of pairs, then "first second" a line by starting rank, seat 1 first, a bye
as "N 0"), so an outside checker can drive it: ``make pair TRF=file.trf``
(``python -m devtools.pair file.trf [--round N]``)."""

from __future__ import annotations

import argparse
import sys

from chalicelib.tournaments import trf
from chalicelib.tournaments.pairings import NoLegalPairing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="a TRF-16 file whose rounds so far are played")
    parser.add_argument("--round", type=int, default=None, help="pair this round from the ones before it")
    args = parser.parse_args(argv)
    try:
        with open(args.file, encoding="utf-8", errors="replace") as f:
            text = f.read()
        sys.stdout.write(trf.pairs_text(trf.pair(text, args.round)))
    except OSError as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 5
    except trf.TrfError as error:
        print(f"not a usable TRF-16 file: {error}", file=sys.stderr)
        return 3
    except NoLegalPairing as error:
        print(f"no legal pairing: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
