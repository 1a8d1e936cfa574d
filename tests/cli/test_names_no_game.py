"""Issue 35: the command line's own modules name no game. What a game looks like on a terminal (its
moves grouped and headed, its board, its hand, its colours, its card set) is the game's part,
``chalicelib/games/<game>/terminal.py``, found through ``TERMINALS[view["game"]]``; a game added
later needs no change here. Allowed: a game's code as the default value of an argument (the game
``battleline new`` makes), the help texts that list the games to choose from, and the program's
name (``battleline``, in its messages and ``prog_name``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from chalicelib.games import GAMES
from chalicelib.games.terminal import TERMINALS

CLI = Path(__file__).resolve().parents[2] / "battleline_cli"
# Its own modules; playtest.py is the front of Khan & General's playtest lab (khan_lab), a designer's tool
# for that one game.
MODULES = sorted(p for p in CLI.glob("*.py") if p.name != "playtest.py")
WORD = re.compile(r"\b(" + "|".join(GAMES) + r")\b")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _allowed(tree: ast.AST) -> set[int]:
    """The constants that may name a game: typer's default values and help texts, ``prog_name``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called in ("typer.Argument", "typer.Option") and node.args:
                found.add(id(node.args[0]))
            for keyword in node.keywords:
                if keyword.arg == "prog_name" or (keyword.arg == "help" and called.startswith(("typer.", "app."))):
                    found |= {id(n) for n in ast.walk(keyword.value) if isinstance(n, ast.Constant)}
    return found


def named_games(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree) | _allowed(tree)
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom) and node.module and set(node.module.split(".")) & set(GAMES):
            found.append(f"{where} imports {node.module}")
        elif isinstance(node, ast.Import) and any(set(a.name.split(".")) & set(GAMES) for a in node.names):
            found.append(f"{where} imports {ast.unparse(node)}")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Name, ast.Attribute, ast.arg)):
            name = getattr(node, "name", None) or getattr(node, "id", None) or getattr(node, "attr", None) \
                or getattr(node, "arg", None)
            if set(name.lower().split("_")) & set(GAMES) and name != "battleline_cli":
                found.append(f"{where} {name}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            # "battleline" in a sentence is the program's name ("battleline show GAME"); a game's code is
            # a string of its own, or a word in a path (/v1/<game>/...)
            if node.value in GAMES or (WORD.search(node.value) and WORD.search(node.value).group(1) != "battleline"):
                found.append(f"{where} {node.value!r}")
    return found


def test_issue35_the_command_lines_own_modules_name_no_game():
    found = [line for path in MODULES for line in named_games(path)]
    assert not found, found


def test_issue35_the_check_finds_a_game_named_in_the_command_line():
    """The check above is not blind: the branches it replaced are found."""
    sample = CLI / "sample.py"
    source = ('from chalicelib.games.battleline.story import card_name\n'
              'def battleline_board(view):\n    return view["game"] == "khan"\n'
              'PATH = "/v1/khan/card-sets/"\n')
    tree_found = []
    try:
        sample.write_text(source)
        tree_found = named_games(sample)
    finally:
        sample.unlink()
    assert len(tree_found) == 4, tree_found


def test_issue35_every_game_has_its_terminal_part():
    assert {game: type(TERMINALS[game]).__name__ for game in GAMES} == {game: "Terminal" for game in GAMES}
