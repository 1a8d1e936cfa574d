"""``python -m khan_lab FILE --games 500 --bot greedy [--language ja] ...``: the same as
``battleline --language ja playtest FILE ...`` (``make playtest`` runs it; ``--help`` lists the options).
``--language`` (or BATTLELINE_LANGUAGE) is the report's language, wherever it stands among the options."""

import sys

from battleline_cli.main import run


def arguments(argv: list[str]) -> list[str]:
    """``playtest`` and its arguments, with ``--language X`` moved before it (it is the CLI's own option)."""
    language, rest, words = [], [], iter(argv)
    for word in words:
        if word == "--language":
            language += [word, next(words, "")]
        elif word.startswith("--language="):
            language.append(word)
        else:
            rest.append(word)
    return [*language, "playtest", *rest]


if __name__ == "__main__":
    sys.argv[1:] = arguments(sys.argv[1:])
    run()
