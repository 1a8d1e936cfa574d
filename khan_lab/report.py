"""The playtest's report: ``report.md`` and ``report.html`` (self-contained: the charts are inline
SVG drawn by matplotlib, with text as paths), plus ``games.json`` (every game's record, to check a
figure or redo a chart). Both documents are built from the same sections (a title, what the figure
means, a table, a chart for the page); they are written in the language spoken (chalicelib/kernel/i18n.py:
``with speaking("ja"): write(...)``), the page's ``<html lang>`` with it.

matplotlib (a dev extra, never in the Lambda package) is imported here only, with the Agg backend.
"""

from __future__ import annotations

import html
import io
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from chalicelib.games.khan import story
from chalicelib.games.khan.cardset import CardSet, warnings
from chalicelib.kernel import i18n
from chalicelib.kernel.i18n import N_, _

from .figures import ending_name
from .play import MCTS, Plan

INSTALL_HINT = "pip install 'matplotlib==3.11.2' (or the dev extras: pip install -e '.[dev]')"
BLUE, ORANGE, GREY = "#3b6ea8", "#d9822b", "#8a8f98"
KINDS = {"unit": N_("unit"), **story.KINDS}  # a card's kind: a unit, or its command's kind (attack, defence, move)
LENGTHS = {"rounds": N_("rounds"), "decisions": N_("decisions")}


def matplotlib_missing() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ModuleNotFoundError:
        return True
    return False


@dataclass
class Run:
    """A playtest as the report tells it."""

    plan: Plan
    card_set: CardSet
    figures: dict
    records: list[dict]
    seconds: float  # the run time
    estimate: float  # the run time expected before it started
    cores: int
    machine: str
    date: str  # UTC, ISO 8601
    compared: "Run | None" = None  # the default set, same seeds, bot and games

    @property
    def per_decision_ms(self) -> float:
        decisions = sum(r["decisions"] for r in self.records)
        return 1000 * sum(r["seconds"] for r in self.records) / max(decisions, 1)


@dataclass
class Section:
    title: str
    meaning: str
    headers: list[str]
    rows: list[list[str]]
    chart: Callable[[], str] | None = None  # inline SVG
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- numbers as read

def pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def interval(figure: dict) -> str:
    if not figure["games"]:
        return _("– (no games)")
    return f"{pct(figure['rate'])} ({pct(figure['low'])} – {pct(figure['high'])})"


def number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.{digits}f}"


def per_game(count: int, a_game: float | None) -> str:
    return f"{number(count)} ({number(a_game, 2)})" if count else "0"


def duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def translated(row: dict, key: str) -> str:
    """A row's words marked with N_ where they were written, in the language spoken."""
    words = row.get(key)
    return _(words) if words else key


def faction_name(card_set: CardSet, faction: str) -> str:
    """The faction's name in the language spoken (its ``names``), else its ``name``."""
    entry = next(f for f in card_set.factions if f.id == faction)
    return entry.named(i18n.language()) or entry.name


# ---------------------------------------------------------------- charts

CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")  # Debian's fonts-noto-cjk (make test has it)


def cjk_fallback() -> None:
    """Chinese and Japanese labels drawn with Noto Sans CJK, glyph by glyph where DejaVu Sans has none."""
    import logging

    import matplotlib
    from matplotlib import font_manager
    # The font has no bold face: matplotlib says so for every bold label ("findfont: Failed to find font
    # weight bold"), and draws the regular one, as meant.
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    if CJK_FONT.exists() and "Noto Sans CJK JP" not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(CJK_FONT))
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", "Noto Sans CJK JP"]



def new_figure(width: float, height: float):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    cjk_fallback()  # labels in Chinese and Japanese too
    matplotlib.rcParams.update({"svg.hashsalt": "khan-lab", "font.size": 10, "axes.spines.top": False,
                                "axes.spines.right": False})
    return Figure(figsize=(width, height), layout="constrained")


def svg(figure) -> str:
    out = io.StringIO()
    figure.savefig(out, format="svg", metadata={"Date": None})
    text = out.getvalue()
    text = text[text.index("<svg"):]  # no XML prolog nor doctype inside the page
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1 class="chart"', text, count=1)


def rates_chart(run: Run) -> str:
    """Each faction's win rate and the first mover's, with their intervals, against 50 %."""
    figures = run.figures
    bars = [(faction_name(run.card_set, f["id"]), f) for f in figures["factions"]] + [(_("first mover"), figures["first"])]
    figure = new_figure(7.5, 0.55 * len(bars) + 1.0)
    axes = figure.subplots()
    labels = [name for name, _f in bars][::-1]
    values = [(f["rate"] or 0) for _n, f in bars][::-1]
    errors = [[(f["rate"] or 0) - f["low"] for _n, f in bars][::-1], [f["high"] - (f["rate"] or 0) for _n, f in bars][::-1]]
    colours = [GREY] + [BLUE] * (len(bars) - 1)
    axes.barh(labels, values, xerr=errors, color=colours, capsize=4, height=0.6)
    axes.axvline(0.5, color="#444", linewidth=1, linestyle="--")
    for y, (value, high) in enumerate(zip(values, [f["high"] for _n, f in bars][::-1])):
        axes.text(high + 0.015, y, pct(value), va="center", ha="left", fontweight="bold")
    axes.set_xlim(0, 1.1)
    axes.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1])
    axes.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f} %")
    axes.set_xlabel(_("win rate (bars: 95 % Wilson interval; dashed: 50 %)"))
    return svg(figure)


def endings_chart(run: Run) -> str:
    endings = run.figures["endings"]
    figure = new_figure(7.5, 0.45 * len(endings) + 1.0)
    axes = figure.subplots()
    labels = [ending_name(e["ending"]) for e in endings][::-1]
    shares = [e["share"] for e in endings][::-1]
    axes.barh(labels, shares, color=BLUE, height=0.6)
    for y, e in enumerate(endings[::-1]):
        axes.text(e["share"] + 0.01, y, f"{pct(e['share'])} ({e['games']})", va="center")
    axes.set_xlim(0, 1.15)
    axes.set_xticks([0, 0.25, 0.5, 0.75, 1])
    axes.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f} %")
    axes.set_xlabel(_("share of the games"))
    return svg(figure)


def length_chart(run: Run) -> str:
    from matplotlib.ticker import MaxNLocator
    figure = new_figure(9, 3.4)
    for axes, key in zip(figure.subplots(1, 2), ("rounds", "decisions")):
        spread = run.figures[key]
        values = spread["values"]
        low, high = min(values), max(values)
        if high - low <= 40:  # a bar for each value
            axes.hist(values, bins=[v - 0.5 for v in range(low, high + 2)], color=BLUE, edgecolor="white")
            axes.set_xlim(low - 1.5, high + 1.5)
        else:
            axes.hist(values, bins=30, color=BLUE, edgecolor="white")
        axes.axvline(spread["mean"], color=ORANGE, linewidth=1.5,
                     label=_("mean {value}").format(value=number(spread["mean"])))
        axes.axvline(spread["median"], color="#444", linewidth=1, linestyle="--",
                     label=_("median {value}").format(value=number(spread["median"])))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_xlabel(_("{what} a game").format(what=_(LENGTHS[key])))
        axes.set_ylabel(_("games"))
        axes.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2)
    return svg(figure)


def cards_chart(run: Run, faction: str) -> str:
    """The faction's win rate in games where it played each card of its deck and where it did not."""
    rows = [r for r in run.figures["cards"][faction] if r["in_deck"]][::-1]
    figure = new_figure(7.5, 0.42 * len(rows) + 1.2)
    axes = figure.subplots()
    ys = range(len(rows))
    axes.barh([y + 0.2 for y in ys], [r["when_played"]["rate"] or 0 for r in rows], height=0.4, color=BLUE,
              label=_("games where it was played"))
    axes.barh([y - 0.2 for y in ys], [r["when_not"]["rate"] or 0 for r in rows], height=0.4, color=GREY,
              label=_("games where it was not"))
    for y, r in zip(ys, rows):
        for offset, figure_ in ((0.2, r["when_played"]), (-0.2, r["when_not"])):
            if figure_["games"]:
                axes.text((figure_["rate"] or 0) + 0.01, y + offset, f"{pct(figure_['rate'])} ({figure_['games']})",
                          va="center", fontsize=7.5, color="#333")
    axes.set_yticks(list(ys), [r["card"] for r in rows])
    axes.axvline(0.5, color="#444", linewidth=1, linestyle="--")
    axes.set_xlim(0, 1.12)
    axes.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1])
    axes.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f} %")
    axes.set_xlabel(_("{faction}: win rate").format(faction=faction_name(run.card_set, faction)))
    axes.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2)
    return svg(figure)


# ---------------------------------------------------------------- the sections

def settings_rows(run: Run) -> list[list[str]]:
    plan, card_set = run.plan, run.card_set
    budget = _("{ms} ms a decision").format(ms=number(plan.budget_ms)) if plan.bot == MCTS \
        else _("– (only mcts has one)")
    named = card_set.named(i18n.language()) or card_set.name
    return [[_("card set"), _("{name}: `{id}` version {version}, digest `{digest}`").format(
                name=named, id=card_set.id, version=card_set.version, digest=card_set.digest)
             + (_(" (file {file})").format(file=card_set.source) if plan.path else "")],
            [_("bot"), _("{bot} against {bot}").format(bot=plan.bot)], [_("time budget"), budget],
            [_("seed"), str(plan.seed)],
            [_("games"), _("{games} (at most {rounds} rounds each)").format(games=plan.games, rounds=plan.max_rounds)],
            [_("workers"), _("{workers} on a machine with {cores} cores ({machine})").format(
                workers=plan.workers, cores=run.cores, machine=run.machine)],
            [_("run time"), _("{time} (expected before it started: {expected}); {ms} ms a decision").format(
                time=duration(run.seconds), expected=duration(run.estimate), ms=f"{run.per_decision_ms:.1f}")],
            [_("date"), run.date],
            [_("checks"), "; ".join(_("warning: {warning}").format(warning=w) for w in warnings(card_set))
             or _("valid, no warnings")]]


def sections(run: Run) -> list[Section]:
    figures, card_set = run.figures, run.card_set
    found = [Section(
        _("Win rate per faction"),
        _("Each faction's share of the games won; draws count as not won. The interval is Wilson's at 95 %: with "
          "this many games the true rate lies in it 19 times in 20. When both factions' intervals hold 50 %, "
          "they are not shown to differ; when a faction's interval lies above 50 %, it is stronger in the hands of "
          "this bot."),
        [_("faction"), _("games"), _("won"), _("lost"), _("drawn"), _("win rate (interval at 95 %)"),
         _("enemy units destroyed a game"), _("wounded a game")],
        [[faction_name(card_set, f["id"]), str(f["games"]), str(f["wins"]), str(f["losses"]), str(f["draws"]), interval(f),
          number(f["destroyed"], 2), number(f["wounded"], 2)] for f in figures["factions"]], lambda: rates_chart(run))]
    first = figures["first"]
    found.append(Section(
        _("First-player advantage"),
        _("The seat that places first and plays first each round. The seats alternate so that each faction moves "
          "first in half of its games: a first mover's win rate above 50 % (its interval above 50 %) is an "
          "advantage of moving first, whatever the faction."),
        [_("who moved first"), _("games"), _("won"), _("win rate (interval at 95 %)")],
        [[_("either faction"), str(first["games"]), str(first["wins"]), interval(first)]]
        + [[faction_name(card_set, f), str(r["games"]), str(r["wins"]), interval(r)]
           for f, r in figures["first_by_faction"].items()]))
    found.append(Section(
        _("How games end"),
        _("The engine's endings: annihilation (a side destroyed all five enemy units), routed (a side had no unit "
          "left on the field), max_rounds (the last round was played: more enemy units destroyed wins, then more "
          "wounded, else a draw), draw_agreed and resign (bots never offer draws nor resign). Many max_rounds games "
          "mean that the cards rarely let one side finish the other."),
        [_("ending"), _("games"), _("share")],
        [[translated(e, "label"), str(e["games"]), pct(e["share"])] for e in figures["endings"]], lambda: endings_chart(run)))
    rounds, decisions = figures["rounds"], figures["decisions"]
    found.append(Section(
        _("Length of the games"),
        _("Rounds played (a round: each side's turn) and decisions taken (every step either side chose: "
          "placing, deploying, commanding, paying, moving, engaging, ending a phase...)."),
        ["", _("mean"), _("median"), _("shortest"), _("longest")],
        [[_(LENGTHS[name]), number(s["mean"]), number(s["median"]), number(s["min"]), number(s["max"])]
         for name, s in (("rounds", rounds), ("decisions", decisions))], lambda: length_chart(run)))
    for index, (faction, rows) in enumerate(figures["cards"].items()):
        found.append(Section(
            _("Cards: {faction}").format(faction=faction_name(card_set, faction)),
            _("As for the cards above.") if index else _(
                "Played: a unit entered the field (placed or deployed); a command was laid face up on a unit as its "
                "command. Paid: laid face down into a sequence to pay for another command (spent, not played). Cards "
                "return to the hand, so a command can be played many times a game. Then the faction's win rate in "
                "the games where it played the card at least once, and in those where it did not (with the number "
                "of games): a card whose games are won much more often when it is played may be strong, one never "
                "played may be weak or unaffordable. A card always played has no games without it (–)."),
            [_("card"), _("kind"), _("copies in the deck"), _("played (a game)"), _("paid (a game)"),
             _("won when played (games)"), _("won when not played (games)")],
            [[r["card"], translated(KINDS, r["kind"]), str(r["in_deck"]), per_game(r["played"], r["played_a_game"]),
              per_game(r["paid"], r["paid_a_game"]),
              f"{pct(r['when_played']['rate'])} ({r['when_played']['games']})",
              f"{pct(r['when_not']['rate'])} ({r['when_not']['games']})"] for r in rows],
            chart=lambda faction=faction: cards_chart(run, faction),
            notes=[_("{cards}: not in the recommended deck, never played.").format(
                cards=", ".join(r["card"] for r in rows if not r["in_deck"]))] if any(not r["in_deck"] for r in rows) else []))
    if run.compared is not None:
        found.append(comparison(run, run.compared))
    return found


def comparison(run: Run, other: Run) -> Section:
    """The main figures beside the default set's, played with the same seeds, bot and games."""
    mine, theirs = run.figures, other.figures
    rows = []
    pairs = list(zip(mine["factions"], theirs["factions"]))
    names = [faction_name(run.card_set, a["id"]) if a["name"] == b["name"]
             else f"{faction_name(run.card_set, a['id'])} / {faction_name(other.card_set, b['id'])}" for a, b in pairs]
    for name, (a, b) in zip(names, pairs):
        rows.append([_("{faction} wins").format(faction=name), interval(a), interval(b)])
    for name, (a, b) in zip(names, pairs):
        rows.append([_("{faction}: enemy units destroyed a game").format(faction=name), number(a["destroyed"], 2), number(b["destroyed"], 2)])
    rows.append([_("first mover wins"), interval(mine["first"]), interval(theirs["first"])])
    for a, b in zip(mine["endings"], theirs["endings"]):
        rows.append([_("ends by {ending}").format(ending=ending_name(a["ending"])), pct(a["share"]),
                     pct(b["share"])])
    for key in ("rounds", "decisions"):
        rows.append([_("{what} a game (mean / median)").format(what=_(LENGTHS[key])), f"{number(mine[key]['mean'])} / {number(mine[key]['median'])}",
                     f"{number(theirs[key]['mean'])} / {number(theirs[key]['median'])}"])
    return Section(
        _("Beside the default set"),
        _("The same games (seeds {seed}:0 to {seed}:{last}, the same bot, {games} games, at most {rounds} rounds) "
          "played with `{id}` version {version}. Factions are matched by their order in the files.").format(
            seed=run.plan.seed, last=run.plan.games - 1, games=run.plan.games, rounds=run.plan.max_rounds,
            id=other.card_set.id, version=other.card_set.version),
        [_("figure"), f"{run.card_set.id} v{run.card_set.version}", f"{other.card_set.id} v{other.card_set.version}"],
        rows)


# ---------------------------------------------------------------- the documents

def title(run: Run) -> str:
    return _("Playtest: {name}").format(name=run.card_set.named(i18n.language()) or run.card_set.name)


def markdown(run: Run) -> str:
    return markdown_document(title(run), settings_rows(run), sections(run))


def markdown_document(heading: str, settings: list[list[str]], found: list[Section]) -> str:
    """A lab document in Markdown: its settings table, then each section (the playtest's and a balance search's)."""
    lines = [f"# {heading}", "", "| | |", "|---|---|"]
    lines += [f"| {a} | {b} |" for a, b in settings]
    for section in found:
        lines += ["", f"## {section.title}", "", section.meaning, ""]
        if section.rows:
            lines += ["| " + " | ".join(section.headers) + " |", "|" + "---|" * len(section.headers)]
            lines += ["| " + " | ".join(row) + " |" for row in section.rows]
        lines += [""] + section.notes if section.notes else []
    return "\n".join(lines) + "\n"


STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; margin: 0; background: #f6f7f9; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 32px 48px; background: white; }
h1 { font-size: 1.6em; margin: 0.2em 0 0.6em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #dde1e6; padding-bottom: 0.2em; }
p.meaning { color: #4a5160; max-width: 80ch; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.95em; }
th, td { padding: 4px 12px; border-bottom: 1px solid #e6e8eb; text-align: right; white-space: nowrap; }
th { background: #eef1f5; font-weight: 600; white-space: normal; vertical-align: bottom; }
th:first-child, td:first-child { text-align: left; }
table.settings td { text-align: left; white-space: normal; }
code { font-family: ui-monospace, monospace; font-size: 0.92em; background: #f0f2f5; padding: 0 3px; }
svg.chart { width: 100%; height: auto; max-width: 900px; display: block; margin: 0.4em 0 0.8em; }
/* A phone (390 px): the page never scrolls sideways; a table wider than the screen scrolls in its
   own box, its first column kept in sight. */
.wide { overflow-x: auto; max-width: 100%; }
@media (max-width: 40rem) {
  main { padding: 12px 10px 32px; }
  th, td { padding: 3px 6px; }
  .wide th:first-child, .wide td:first-child { position: sticky; left: 0; background: white; }
  .wide th:first-child { background: #eef1f5; }
  table.settings td { overflow-wrap: anywhere; }
}
"""


def html_cell(text: str) -> str:
    """A table cell's text in HTML: `code` as <code>."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", html.escape(text))


def page(run: Run) -> str:
    return html_document(title(run), settings_rows(run), sections(run))


def html_document(heading: str, settings: list[list[str]], found: list[Section]) -> str:
    """A lab document as one HTML page; each table in a `wide` box, so a phone scrolls the table, never the page."""
    heading = html.escape(heading)
    parts = [f"<!doctype html>\n<html lang=\"{i18n.language()}\"><head><meta charset=\"utf-8\">"
             f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             f"<title>{heading}</title><style>{STYLE}</style></head><body><main>",
             f"<h1>{heading}</h1>", "<div class=\"wide\"><table class=\"settings\">"]
    parts += [f"<tr><th>{html.escape(a)}</th><td>{html_cell(b)}</td></tr>" for a, b in settings]
    parts.append("</table></div>")
    for section in found:
        parts += [f"<h2>{html.escape(section.title)}</h2>", f"<p class=\"meaning\">{html_cell(section.meaning)}</p>"]
        if section.chart is not None:
            parts.append(section.chart())
        if section.rows:
            parts.append("<div class=\"wide\"><table><tr>"
                         + "".join(f"<th>{html.escape(h)}</th>" for h in section.headers) + "</tr>")
            parts += ["<tr>" + "".join(f"<td>{html_cell(c)}</td>" for c in row) + "</tr>" for row in section.rows]
            parts.append("</table></div>")
        parts += [f"<p>{html_cell(note)}</p>" for note in section.notes]
    parts.append("</main></body></html>\n")
    return "\n".join(parts)


def write(run: Run, folder: Path) -> dict[str, Path]:
    """report.md, report.html (in the language spoken) and games.json in ``folder`` (made when missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {"markdown": folder / "report.md", "html": folder / "report.html", "games": folder / "games.json"}
    paths["markdown"].write_text(markdown(run), encoding="utf-8")
    paths["html"].write_text(page(run), encoding="utf-8")
    games: dict[str, Any] = {"plan": asdict(run.plan), "games": run.records}
    if run.compared is not None:
        games["compared"] = {"plan": asdict(run.compared.plan), "games": run.compared.records}
    paths["games"].write_text(json.dumps(games, indent=1) + "\n", encoding="utf-8")
    return paths
