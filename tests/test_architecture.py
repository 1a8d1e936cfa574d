"""The shape docs/architecture.md promises, checked on the code: no module imports another in a
circle, no code reaches into another module's private names, and the services know no HTTP."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "chalicelib"
# Overriding a library's hook in a subclass is the library's own extension point.
ALLOWED_PRIVATE = {("infra/stack.py", "super()._package_app")}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """The chalicelib modules a file imports, wherever the import stands (in a function, under
    TYPE_CHECKING): each is a dependency a reader must follow."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{a.name}" for a in node.names}
    return {name for name in found if name.startswith("chalicelib")}


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def cycle_from(start: str, edges: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from ``start`` back to itself, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in edges[node]:
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_no_module_imports_itself_through_others():
    edges = graph()
    cycles = [c for m in sorted(edges) if (c := cycle_from(m, edges))]
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles[:5])


def test_no_code_uses_another_modules_private_names():
    found = []
    for path in [ROOT / "app.py", *[p for d in ("chalicelib", "tests", "benchmarks", "devtools", "infra", "khan_lab",
                                                  "battleline_cli") for p in (ROOT / d).rglob("*.py")]]:
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text())):
            # ``_`` alone is gettext's conventional name (chalicelib/kernel/i18n.py), not a private one.
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and node.attr != "_":
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                if (where, ast.unparse(node)) not in ALLOWED_PRIVATE:
                    found.append(f"{where}:{node.lineno} {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom):
                found += [f"{where}:{node.lineno} imports {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__") and a.name != "_"]
    assert not found, found


def test_the_services_know_no_http_and_no_html():
    """Services take validated models and return plain data: no Chalice, no pages, no templates. Of
    the HTTP edge (chalicelib/http/) they take only what an operation brings (models.py: the
    request's body and query, validated), its list's page (cursors.py) and the rate limits
    (ratelimit.py): never the adapter (web.py) or the answers' documentation (responses.py)."""
    leaks = {}
    for path in (PACKAGE / "services").rglob("*.py"):
        names = imports_of(path) | {n for n in _plain_imports(path)}
        bad = sorted(n for n in names if n == "chalice" or n.startswith(
            ("chalice.", "chalicelib.http.web", "chalicelib.http.responses", "chalicelib.pages",
             "chalicelib.mailplay.pages", "jinja2")))
        if bad:
            leaks[path.name] = bad
    assert not leaks, leaks


def _plain_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


DRAWN = ("render", "presenter", "presenters", "story", "terminal")  # how a game is shown and told to people


def test_the_engines_are_pure_and_their_rules_know_no_presentation():
    """games/ imports nothing of the server (no store, service, clock, HTTP or notification) and no
    clock of its own; a game's rules never import how it is drawn or told (render.py, story.py,
    presenter.py)."""
    server = ("chalicelib.store", "chalicelib.services", "chalicelib.notify", "chalicelib.mailplay", "chalicelib.presenting",
              "chalicelib.pages", "chalicelib.http", "chalicelib.config", "chalicelib.wiring",
              "chalicelib.kernel.clock", "chalicelib.kernel.observability", "boto3", "botocore",
              "time", "datetime")
    impure, drawn = {}, {}
    for path in (PACKAGE / "games").rglob("*.py"):
        names = imports_of(path) | _plain_imports(path)
        if bad := sorted(n for n in names if n.startswith(server)):
            impure[str(path.relative_to(PACKAGE))] = bad
        if path.stem not in DRAWN and (bad := sorted(n for n in names if n.rsplit(".", 1)[-1] in DRAWN)):
            drawn[str(path.relative_to(PACKAGE))] = bad
    assert not impure, impure
    assert not drawn, drawn


def test_the_rules_mark_their_words_for_translation_but_speak_no_language():
    """A game's rules take only the no-op markers ``N_``/``Nn_`` from chalicelib.kernel.i18n (their
    refusals and step words are ``Words``, said in the reader's language where they are shown);
    ``_``, ``say`` or ``speaking`` belong to how a game is drawn or told (render, story, presenter) and
    to the text-command reader (``steptypes``: it reads a reply in the words of the language spoken).
    ``LANGUAGES``, the list of the server's languages, is data (card sets name their cards in them)."""
    speaking = {}
    for path in (PACKAGE / "games").rglob("*.py"):
        if path.stem in DRAWN or path.stem == "steptypes":
            continue
        names = imports_of(path)
        if bad := sorted(n for n in names if n.startswith("chalicelib.kernel.i18n.")
                         and n.rsplit(".", 1)[-1] not in ("N_", "Nn_", "LANGUAGES")):
            speaking[str(path.relative_to(PACKAGE))] = bad
        if "chalicelib.kernel.i18n" in _plain_imports(path):
            speaking[str(path.relative_to(PACKAGE))] = ["import chalicelib.kernel.i18n"]
    assert not speaking, speaking


# ------------------------------------------------------------------ sizes a reader can hold

MOST_PROTOCOL_METHODS = 25
MOST_CLASS_LINES = 350
# Classes over the limit today, each to be split by a later change (issue 35), then taken off this list.
LONG_CLASSES_ALLOWED = {
    ("infra/stack.py", "BattlelineStack"),  # the deployed stack: to be one construct per area
}


def _classes():
    for folder in ("chalicelib", "devtools", "benchmarks", "infra", "khan_lab", "battleline_cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "cdk.out" in path.parts or "chalice.out" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef):
                    yield path.relative_to(ROOT).as_posix(), node


def test_no_protocol_has_more_than_25_methods():
    """Storage and every other protocol stay small: a service depends on an area, not on everything
    (``Store`` itself is the areas' protocols put together, defining none of its own)."""
    found = {}
    for path, node in _classes():
        if any((getattr(b, "id", None) or getattr(b, "attr", None)) == "Protocol" for b in node.bases):
            found[(path, node.name)] = sum(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) for m in node.body)
    assert ("chalicelib/store/protocol.py", "PlayerStore") in found
    assert {k: n for k, n in found.items() if n > MOST_PROTOCOL_METHODS} == {}


def test_no_class_is_over_350_lines():
    long = {(path, node.name): node.end_lineno - node.lineno + 1 for path, node in _classes()
            if node.end_lineno - node.lineno + 1 > MOST_CLASS_LINES}
    assert set(long) - LONG_CLASSES_ALLOWED == set(), long
    assert LONG_CLASSES_ALLOWED <= set(long), "a class of the allow-list is short now: take it off the list"


def test_a_games_life_calls_down_only_its_clock_calls_no_service():
    """Issue 35: one object owns a game's life (services/life.py) and its clock is a collaborator it
    calls, not a callback passed both ways: the game's life imports no service but its clock and the
    game-record helpers, the clock imports no service, and neither the moves' helpers nor the clock
    import the games service that calls them."""
    services = "chalicelib.services."
    life = {m for m in imports_of(PACKAGE / "services" / "life.py") if m.startswith(services)}
    assert {m.split(".")[2] for m in life} <= {"moves", "turnclock"}, life
    clock = {m for m in imports_of(PACKAGE / "services" / "turnclock.py") if m.startswith(services)}
    assert not clock, clock
    for callee in ("moves.py", "turnclock.py", "life.py"):
        assert not {m for m in imports_of(PACKAGE / "services" / callee) if m.startswith(services + "games")}, callee


def test_services_are_handed_collaborators_never_another_services_bound_methods():
    """Issue 35: wired per area (chalicelib/wiring.py), each service holds the services it uses as
    objects; none keeps a bound method of another object, and ``Games`` takes few parameters."""
    import dataclasses
    import inspect

    from chalicelib.config import build_services
    from chalicelib.services.games import Games

    built = build_services(object())  # building touches no store
    for field in dataclasses.fields(built):
        service = getattr(built, field.name)
        if field.name in ("store", "dispatcher") or service is None:  # (inbound: none without links)
            continue
        handed = {name: value for name, value in vars(service).items()
                  if inspect.ismethod(value) and value.__self__ is not service}
        assert not handed, f"{field.name} was handed bound methods: {sorted(handed)}"
    assert len(inspect.signature(Games.__init__).parameters) - 1 <= 8  # (15 before, 4 of them functions)


def package_of(module: str) -> str:
    """A module's package under chalicelib (``chalicelib.notify``), or the module itself for one
    at chalicelib's top (``chalicelib.config``)."""
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for module, imported in graph().items():
        here = package_of(module)
        edges.setdefault(here, set())
        edges[here] |= {package_of(m) for m in imported if package_of(m) != here}
    for targets in list(edges.values()):
        for target in targets:
            edges.setdefault(target, set())
    return edges


# Package-level import cycles not untangled yet, each as an edge (importer, imported) left out of the
# check below; empty when the packages stack.
ALLOWED_PACKAGE_EDGES: set[tuple[str, str]] = set()


def test_issue35_item5_no_package_imports_itself_through_others():
    """The packages of chalicelib stack: services -> notify -> mailplay -> pages -> services was
    the one circle (issue 35); none may come back."""
    edges = {package: {t for t in targets if (package, t) not in ALLOWED_PACKAGE_EDGES}
             for package, targets in package_graph().items()}
    cycles = [c for p in sorted(edges) if (c := cycle_from(p, edges))]
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles[:5])


# The shared kernel uses no area; the clocks' and ladders' rules are pure (no storage, service, edge
# or notification); the HTTP edge is above the services, not below them.
PURE_RULES = ("chalicelib.clocks", "chalicelib.ladders", "chalicelib.gamerecord", "chalicelib.tournaments")
SERVER = ("chalicelib.store", "chalicelib.services", "chalicelib.notify", "chalicelib.mailplay",
          "chalicelib.presenting", "chalicelib.pages", "chalicelib.http", "chalicelib.config", "chalicelib.wiring")
ALL_PACKAGES = SERVER + PURE_RULES + ("chalicelib.games", "chalicelib.bots")

NEVER_IMPORTS = {  # (importer, imported): the layers that must stay apart (docs/architecture.md)
    ("chalicelib.pages", "chalicelib.services"),
    ("chalicelib.notify", "chalicelib.mailplay"),
    ("chalicelib.presenting", "chalicelib.store"),
    ("chalicelib.presenting", "chalicelib.services"),
    ("chalicelib.presenting", "chalicelib.notify"),
    ("chalicelib.presenting", "chalicelib.mailplay"),
    ("chalicelib.presenting", "chalicelib.pages"),
    ("chalicelib.presenting", "chalicelib.http"),
    ("chalicelib.notify", "chalicelib.http"),
    ("chalicelib.store", "chalicelib.http"),
    *{("chalicelib.kernel", other) for other in ALL_PACKAGES},
    *{(rules, other) for rules in PURE_RULES for other in SERVER},
}


# The one module a pure rule may take from a layer above it: the store's records are plain data (what
# the services keep), and the game-record format is built from a game's stored versions.
NEVER_IMPORTS_BUT = {("chalicelib.gamerecord", "chalicelib.store.records")}


def test_issue35_item5_the_layers_that_must_stay_apart_do():
    found = []
    for module, imported in graph().items():
        for target in imported:
            if (package_of(module), package_of(target)) in NEVER_IMPORTS \
                    and (package_of(module), target) not in NEVER_IMPORTS_BUT:
                found.append(f"{module} imports {target}")
    assert not found, "\n".join(sorted(found))


GAME_FREE = ("notify", "mailplay", "pages", "presenting", "services")  # they reach a game through its presenter
GAME_NAMES = ("battleline", "khan")


def test_issue35_item2_no_game_is_named_outside_games_and_its_presenters():
    """Notifications, mail play, the pages, presenting and the services name no game: no "battleline"
    or "khan" as a string, no Battle Line step (``mud_discard``). What one game does differently is
    asked of its engine or presenter (``Presenter.then``: what follows a link's step in its turn;
    ``notation``: a game record's notation), so a new game touches none of them."""
    found = []
    for package in GAME_FREE:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            where, source = path.relative_to(ROOT), path.read_text()
            for node in ast.walk(ast.parse(source)):
                if isinstance(node, ast.Constant) and node.value in GAME_NAMES:
                    found.append(f"{where}:{node.lineno} {node.value!r}")
            found += [f"{where}:{number} mud_discard" for number, line in enumerate(source.splitlines(), 1)
                      if "mud_discard" in line]
    assert not found, "\n".join(found)


TOP_MODULES_ALLOWED = {
    "__init__.py",
    "config.py",  # the settings and the composition root: it builds every package's services
    "wiring.py",  # the services wired area by area, called in order by config.build_services
}


def test_issue35_layout_chalicelibs_top_holds_only_packages_and_the_composition_root():
    """Issue 35: every module has a home a newcomer would guess (docs/architecture.md, "Where each
    module went"): chalicelib's top holds packages, and the two modules of the composition root."""
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in TOP_MODULES_ALLOWED)
    assert loose == [], f"modules loose at chalicelib's top: {loose}"
    unpackaged = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and not (p / "__init__.py").exists()
                        and p.name not in ("locale", "templates", "__pycache__"))
    assert unpackaged == [], unpackaged
