"""What a player types after ``battleline play GAME``, read into steps.

The commands are an email reply's (``play 7R 3``, ``claim none``, ``draw troop``; ``deploy
light_cavalry -1 0 N``, ``end action``), written in any of these ways:

* quoted, one command an argument: ``"play 7R 3" "claim none" "draw troop"`` (a command written
  without spaces, as Chinese and Japanese write them, needs no quotes: ``宣言なし 軍隊を引く``);
* unquoted, separated by ``/`` or ``;``: ``play 7R 3 / claim none / draw troop``;
* unquoted and unseparated: ``play 7R 3 claim none draw troop`` (split where the words make
  commands that all read);
* by number, for a short decision ``battleline show`` numbers: ``battleline play GAME 2``.
"""

from __future__ import annotations

import re

from chalicelib.games.presenters import Presenter
from chalicelib.games.steptypes import CommandError
from chalicelib.kernel.i18n import _

from .moves import your_moves

SEPARATORS = re.compile(r"\s*[/;\n]\s*")


def lines_of(words: list[str], presenter: Presenter) -> list[str]:
    """The command lines in the arguments: a quoted argument is a line (or several, split by
    "/" and ";"), and a run of single words is split by "/" and ";", then where commands begin."""
    lines: list[str] = []
    run: list[str] = []

    def end_run() -> None:
        if run:
            lines.extend(_split_run(run, presenter))
            run.clear()

    for word in words:
        if len(word.split()) > 1:
            end_run()
            lines.extend(p for p in SEPARATORS.split(word.strip()) if p)
            continue
        if not word.isascii() and _reads(word.strip(), presenter):
            # a whole command in one word, as Chinese and Japanese write them ("宣言なし" "軍隊を引く"): its
            # own line (an English word that reads alone, "claim", may still begin a longer command)
            end_run()
            lines.append(word.strip())
            continue
        pieces = SEPARATORS.split(word.strip())
        for index, piece in enumerate(pieces):
            if index:
                end_run()
            if piece:
                run.append(piece)
    end_run()
    return lines


def _split_run(words: list[str], presenter: Presenter) -> list[str]:
    """A run of words into commands: every word a number, each its own; else the first way of
    cutting it where commands begin in which every piece reads (``command advance 0 0`` is one
    command although ``advance`` begins one too)."""
    if all(w.isdigit() for w in words):
        return list(words)
    heads = [t.command.split() for t in presenter.steps.types]
    starts = [i for i in range(1, len(words))
              if any([w.lower() for w in words[i:i + len(h)]] == h for h in heads)] + [len(words)]

    def cut(begin: int) -> list[str] | None:
        if begin == len(words):
            return []
        for end in (s for s in starts if s > begin):
            line = " ".join(words[begin:end])
            if _reads(line, presenter):
                rest = cut(end)
                if rest is not None:
                    return [line] + rest
        return None

    found = cut(0)
    if found is not None:
        return found
    # Nothing reads: the pieces as cut where commands begin, so the error names the first bad one.
    bounds = [0] + starts
    return [" ".join(words[a:b]) for a, b in zip(bounds, bounds[1:])]


def _reads(line: str, presenter: Presenter) -> bool:
    """Does the line read as one command (in the reader's words or in English)?"""
    try:
        presenter.steps.read_line(line)
    except CommandError:
        return False
    return True


def steps_of(words: list[str], view: dict, presenter: Presenter, game_id: str) -> list[dict]:
    """The steps the arguments ask for (raises CommandError, in one line, naming what went wrong)."""
    steps: list[dict] = []
    for line in lines_of(words, presenter):
        if line.isdigit():
            numbered = your_moves(view).numbered if view["to_move"] == view["you"] else []
            number = int(line)
            if not numbered:
                raise CommandError(_("there are no numbered moves now: type the commands "
                                     "(battleline show {game} lists them)").format(game=game_id))
            if not 1 <= number <= len(numbered):
                raise CommandError(_("there is no move {number} now (battleline show {game} lists them)").format(
                    number=number, game=game_id))
            steps.append(numbered[number - 1])
            continue
        steps += presenter.parse_commands(line)
    return steps
