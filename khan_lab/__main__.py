"""``python -m khan_lab FILE --games 500 --bot greedy ...``: the same as ``battleline playtest FILE ...``
(``make playtest`` runs it; ``--help`` lists the options)."""

import sys

from battleline_cli.main import run

if __name__ == "__main__":
    sys.argv[1:1] = ["playtest"]
    run()
