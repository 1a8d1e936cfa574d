"""``make balance FILE=set.json SEARCH=search.json [OUT=dir] [MINUTES=n] [SEED=n]``, ``battleline balance``
and ``python -m khan_lab.balance``: the balance search (``search.py``) from the command line, and its
report in the designer's language.

OUT (default ``var/balance/<card set id>/``) receives ``report.md`` and ``report.html`` (in the
language spoken: ``--language``, or ``BATTLELINE_LANGUAGE``; the four the server speaks, by gettext)
and one folder a candidate, ``candidate-<rank>/``, holding its card-set file (valid, the set's next
version) and the lab's report of its games (``report.py``: win rates with intervals, endings, each
card's part, first mover; the lab writes it in English).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from chalicelib.kernel import i18n
from chalicelib.games.khan.cardset import CardSet, CardSetError, warnings
from chalicelib.kernel.i18n import N_, _

from . import figures, lab, play, report, search as searching
from .report import Run, Section, duration, pct

STATES = {"met": i18n.N_("met"), "missed": i18n.N_("missed"), "open": i18n.N_("open"),
          "invalid": i18n.N_("invalid")}

# Said when no variant ranks above the original (search.score: targets met first, then nearness).
NONE_BETTER = N_("No variant met more of the targets than the original set, nor came nearer them while meeting as "
                 "many.")


# ---------------------------------------------------------------- the figures as read

def state(word: str) -> str:
    return _(STATES[word])


def target_words(search: searching.SearchFile) -> dict[str, str]:
    targets = search.targets
    found = {}
    if targets.win_rate is not None:
        found["win_rate"] = _("each faction wins between {low} and {high} of the games").format(
            low=pct(targets.win_rate.low), high=pct(targets.win_rate.high))
    if targets.early_endings is not None:
        found["early_endings"] = _("at least {share} of the games end before the round limit").format(
            share=pct(targets.early_endings))
    if targets.cards_played is not None:
        found["cards_played"] = _("each card of a deck is played in at least {share} of its faction's games").format(
            share=pct(targets.cards_played))
    return found


def faction_name(card_set: CardSet, faction: str) -> str:
    entry = next(f for f in card_set.factions if f.id == faction)
    return entry.named(i18n.language()) or entry.name


def figure(check: dict, card_set: CardSet, share: float | None = None) -> str:
    """A target's figure on a variant's games: the point estimate and its interval."""
    if "rates" in check:
        return "; ".join(f"{faction_name(card_set, f)} {report.interval(r)}" for f, r in check["rates"].items())
    if "rate" in check:
        return report.interval(check["rate"])
    if "cards" in check:
        below = [card for card, r in check["cards"].items() if share is not None and r["rate"] < share]
        return _("played in too few games: {cards}").format(cards=", ".join(below)) if below else \
            _("every card often enough")
    return "; ".join(check.get("problems", []))


def target_cells(variant: searching.Variant, search: searching.SearchFile, card_set: CardSet) -> list[str]:
    share = search.targets.cards_played
    return [f"{state(c['state'])}: {figure(c, card_set, share)}" if c else "–"
            for c in (variant.checks.get(key) for key in target_words(search))]


def changes(result: searching.Result, variant: searching.Variant) -> str:
    return "; ".join(f"`{line}`" for line in searching.diff(result, variant)) or _("the original set")


# ---------------------------------------------------------------- the chart


def rates_chart(result: searching.Result) -> str:
    """Each faction's win rate (with its interval) on the original set and each candidate, against the target."""
    shown = [result.original, *result.candidates]
    labels = [_("original")] + [_("candidate {rank}").format(rank=rank) for rank in range(1, len(shown))]
    card_set = result.base
    figure_ = report.new_figure(7.5, 0.5 * len(shown) * len(card_set.faction_ids) + 1.2)
    axes = figure_.subplots()
    colours = [report.BLUE, report.ORANGE]
    for index, faction in enumerate(card_set.faction_ids):
        ys, values, errors = [], [], [[], []]
        for row, variant in enumerate(shown):
            games = len(variant.records)
            r = figures.rate(sum(1 for g in variant.records if figures.winner_faction(g) == faction), games)
            ys.append((len(shown) - 1 - row) * (len(card_set.faction_ids) + 0.6) + (1 - index))
            values.append(r["rate"] or 0)
            errors[0].append((r["rate"] or 0) - r["low"])
            errors[1].append(r["high"] - (r["rate"] or 0))
        axes.barh(ys, values, xerr=errors, color=colours[index % 2], capsize=3, height=0.8,
                  label=faction_name(card_set, faction))
    target = result.search.targets.win_rate
    if target is not None:
        axes.axvspan(target.low, target.high, color="#2e8b57", alpha=0.12)
    axes.set_yticks([(len(shown) - 1 - row) * (len(card_set.faction_ids) + 0.6) + 0.5 for row in range(len(shown))],
                    labels)
    axes.set_xlim(0, 1)
    axes.xaxis.set_major_formatter(lambda x, _p: f"{100 * x:.0f} %")
    axes.set_xlabel(_("win rate (bars: 95 % Wilson interval; shaded: the target)"))
    axes.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncols=2)
    return report.svg(figure_)


# ---------------------------------------------------------------- the report

def bots_rows(result: searching.Result) -> list[list[str]]:
    """The same set in the hands of the search's bot and of the stronger one, and how strong that one is."""
    search, card_set = result.search, result.base
    rows = []
    for rank, variant in enumerate([result.original, *result.candidates]):
        if not variant.confirmed.get("bot"):
            continue
        strong = variant.confirmed["bot"]
        name = _("original") if rank == 0 else _("candidate {rank}").format(rank=rank)
        cells = [name]
        for faction in card_set.faction_ids:
            weak_rate = figures.rate(sum(1 for g in variant.records if figures.winner_faction(g) == faction),
                                     len(variant.records))
            strong_rate = figures.rate(sum(1 for g in strong if figures.winner_faction(g) == faction), len(strong))
            cells += [report.interval(weak_rate), report.interval(strong_rate)]
        versus = variant.confirmed.get("strength") or []
        cells.append(report.interval(figures.rate(sum(1 for g in versus if g["winner"] == 1), len(versus)))
                     if versus else "–")
        cells.append(balanced(variant.confirmed["bot"], search, card_set))
        rows.append(cells)
    return rows


def balanced(records: list[dict], search: searching.SearchFile, card_set: CardSet) -> str:
    """Whether the games show the set balanced: only when every faction's interval lies inside the target."""
    target = search.targets.win_rate
    if target is None or not records:
        return "–"
    rates = [figures.rate(sum(1 for g in records if figures.winner_faction(g) == f), len(records))
             for f in card_set.faction_ids]
    if all(target.low <= r["low"] and r["high"] <= target.high for r in rates):
        return _("balanced for this bot on {games} games: every interval inside the target").format(games=len(records))
    half = max(r["high"] - r["low"] for r in rates) / 2
    return _("not shown balanced: {games} games leave intervals of ± {half}").format(games=len(records),
                                                                                    half=pct(half))


def settings_rows(result: searching.Result, search_file: str, machine: str, date: str) -> list[list[str]]:
    search, card_set = result.search, result.base
    notes = [_("warning: {warning}").format(warning=w) for w in warnings(card_set)]
    notes += [_("{cards}: in no recommended deck of {faction}, so only a custom deck (--decks) or a deck change "
                "plays them").format(cards=i18n.joined(cards), faction=faction_name(card_set, faction))
              for faction, cards in result.unplayed.items()]
    stop = _("the time budget ended the search: {played} of {planned} variants played").format(
        played=len([v for v in result.variants if v.games]), planned=result.planned) if result.stopped_early \
        else _("the search played its whole plan ({planned} variants)").format(planned=result.planned)
    named = _("{name}: `{id}` version {version}").format(name=card_set.named(i18n.language()) or card_set.name,
                                                          id=card_set.id, version=card_set.version)
    rows = [[_("card set"), named],
            [_("search file"), f"`{search_file}`"],
            [_("searched with"), _("{bot} against {bot}").format(bot=search.bot)],
            [_("confirmed with"), _("{bot} against {bot}, {budget} ms a decision; and {bot} against {other}").format(
                bot=search.confirm.bot, budget=report.number(search.confirm.budget_ms), other=search.bot)],
            [_("seed"), str(result.seed)],
            [_("games a variant"), _("{batch} at a time, at most {most}; at most {rounds} rounds a game").format(
                batch=search.games.batch, most=search.games.most, rounds=search.max_rounds)],
            [_("time"), _("{spent} of a budget of {budget} minutes on {workers} workers; {stop}").format(
                spent=duration(result.seconds), budget=report.number(result.minutes), workers=result.workers,
                stop=stop)],
            [_("machine"), f"{machine}, {date}"]]
    if result.decks:
        rows.append([_("decks"), "; ".join(f"{faction_name(card_set, f)}: {', '.join(d)}"
                                           for f, d in sorted(result.decks.items()))])
    if notes:
        rows.append([_("warnings"), i18n.sentences(*notes)])
    return rows


def sections(result: searching.Result) -> list[Section]:
    search, card_set = result.search, result.base
    words = target_words(search)
    found = [Section(
        _("Targets"),
        _("Each target of the search file, and the original set's figure. Met: the 95 % Wilson interval lies "
          "inside the target; missed: it lies wholly outside, so more games cannot meet it; open: more games are "
          "needed to tell."),
        [_("target"), _("original set ({games} games)").format(games=result.original.games)],
        [[words[key], cell] for key, cell in zip(words, target_cells(result.original, search, card_set))])]
    found.append(Section(
        _("Candidates"),
        _("The variants nearest the targets, best first: more targets met, then nearer to them, then fewer changes. "
          "Each is a card-set file in its folder (the set's next version: publish one of them), beside the lab's "
          "report of its games."),
        [_("rank"), _("changes"), _("games"), *words.values(), _("folder")],
        [[str(rank), changes(result, v), str(v.games), *target_cells(v, search, card_set), f"`candidate-{rank}/`"]
         for rank, v in enumerate(result.candidates, 1)],
        chart=(lambda: rates_chart(result)) if result.candidates else None,
        notes=[] if result.candidates else [_(NONE_BETTER)]))
    for rank, variant in enumerate(result.candidates, 1):
        rows = []
        for faction in card_set.faction_ids:
            rows.append([_("{faction} wins ({bot})").format(faction=faction_name(card_set, faction), bot=search.bot),
                         *[report.interval(figures.rate(sum(1 for g in v.records if figures.winner_faction(g) == faction),
                                                        len(v.records))) for v in (result.original, variant)]])
        rows.append([_("first mover wins"), *[report.interval(figures.rate(
            sum(1 for g in v.records if g["winner"] == g["first"]), len(v.records))) for v in (result.original, variant)]])
        rows.append([_("games ending before the round limit"), *[report.interval(figures.rate(
            sum(1 for g in v.records if g["reason"] != "max_rounds"), len(v.records))) for v in (result.original, variant)]])
        rows.append([_("rounds a game (mean)"), *[report.number(sum(g["rounds"] for g in v.records) / max(1, len(v.records)))
                                                  for v in (result.original, variant)]])
        notes = [_("max_rounds is a game option, not a field of the file: start its games with -o max_rounds={value}.")
                 .format(value=variant.max_rounds)] if variant.max_rounds != result.original.max_rounds else []
        found.append(Section(
            _("Candidate {rank}").format(rank=rank),
            _("Its changes from the original, in the card-set file's words: {changes}. Its figures beside the "
              "original's, on the same seeds. The lab's full report of its games: `candidate-{rank}/report.html`.")
            .format(changes=changes(result, variant), rank=rank),
            [_("figure"), _("original"), _("candidate {rank}").format(rank=rank)], rows, notes=notes))
    bots = bots_rows(result)
    if bots:
        headers = [_("set")]
        for faction in card_set.faction_ids:
            headers += [_("{faction} wins ({bot})").format(faction=faction_name(card_set, faction), bot=b)
                        for b in (search.bot, search.confirm.bot)]
        headers += [_("{strong} against {weak}: {strong} wins").format(strong=search.confirm.bot, weak=search.bot),
                    _("verdict")]
        found.append(Section(
            _("How much is the bots'"),
            _("The same sets played by {weak} and by {strong} (fewer games: wider intervals). A win rate that moves "
              "between the two bots by more than its intervals tells of the bots, not only of the cards; {strong} "
              "against {weak} tells how much stronger {strong} is. A set is called balanced only when every "
              "faction's interval lies inside the win-rate target, never on fewer games than that takes.")
            .format(weak=search.bot, strong=search.confirm.bot), headers, bots))
    stages = {0: _("original")}
    found.append(Section(
        _("Every variant searched"),
        _("In the order played: the original set, one change at a time, then combinations of the most promising. "
          "Each stopped as soon as its intervals decided it (missed: a target out of reach; met: every target met), "
          "or at the most games."),
        [_("variant"), _("changes"), _("stage"), _("games"), _("state"), *words.values()],
        [[str(v.number), changes(result, v), stages.get(v.number) or (_("one change") if len(v.edits) == 1
                                                                    else _("combined")),
          str(v.games), state(v.status) if v.games or v.status == "invalid" else _("not played: no time left"),
          *target_cells(v, search, card_set)] for v in result.variants]))
    return found


def heading(result: searching.Result) -> str:
    return _("Balance search: {name}").format(name=result.base.named(i18n.language()) or result.base.name)


def markdown(result: searching.Result, search_file: str, machine: str, date: str) -> str:
    return report.markdown_document(heading(result), settings_rows(result, search_file, machine, date), sections(result))


def page(result: searching.Result, search_file: str, machine: str, date: str) -> str:
    return report.html_document(heading(result), settings_rows(result, search_file, machine, date), sections(result))


def write(result: searching.Result, folder: Path, search_file: str) -> dict[str, Path]:
    """The candidates' folders (card-set file, the lab's report of its games), then report.md and report.html
    in the language spoken; search.json: every variant's changes, games and states."""
    folder.mkdir(parents=True, exist_ok=True)
    machine, date = lab.machine(), lab.now()
    for rank, variant in enumerate(result.candidates, 1):
        where = folder / f"candidate-{rank}"
        path = searching.write_candidate(result, variant, where)
        card_set = searching.candidate_set(result, variant)
        plan = play.plan_for(card_set, bot=result.search.bot, games=variant.games, seed=result.seed,
                             workers=result.workers, max_rounds=variant.max_rounds, path=str(path),
                             decks=tuple((f, tuple(d)) for f, d in sorted(result.decks.items())))
        run = Run(plan=plan, card_set=card_set, figures=figures.summarize(variant.records, card_set),
                  records=variant.records, seconds=variant.seconds, estimate=variant.seconds, cores=play.cores(),
                  machine=machine, date=date)
        report.write(run, where)
    paths = {"markdown": folder / "report.md", "html": folder / "report.html", "search": folder / "search.json"}
    paths["markdown"].write_text(markdown(result, search_file, machine, date), encoding="utf-8")
    paths["html"].write_text(page(result, search_file, machine, date), encoding="utf-8")
    summary = {"seed": result.seed, "seconds": result.seconds, "stopped_early": result.stopped_early,
               "candidates": [{"rank": rank, "changes": searching.diff(result, v), "variant": v.number}
                              for rank, v in enumerate(result.candidates, 1)],
               "variants": [{"variant": v.number, "changes": searching.diff(result, v), "games": v.games,
                             "state": v.status, "targets": {k: c["state"] for k, c in v.checks.items()}}
                            for v in result.variants]}
    paths["search"].write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return paths


# ---------------------------------------------------------------- the command

def read_decks(path: Path, card_set: CardSet) -> dict[str, list[str]]:
    """``--decks``: {faction: [15 card ids]}, each checked by the deck rules (CardSetError naming the faction)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CardSetError(path.name, [f"cannot read the decks: {error}"]) from None
    if not isinstance(data, dict) or not all(isinstance(d, list) for d in data.values()):
        raise CardSetError(path.name, ["write the decks as {\"faction\": [15 card ids], ...}"])
    problems = [f"{faction}: {faction!r} is not one of the factions ({', '.join(card_set.faction_ids)})"
                for faction in data if faction not in card_set.faction_ids]
    problems += [f"{faction}: {problem}" for faction, deck in data.items() if faction in card_set.faction_ids
                 for problem in card_set.deck_problems(deck, faction)]
    if problems:
        raise CardSetError(path.name, problems)
    return data


def balance(file: Path, search_file: Path, out: Path | None = None, minutes: float = 30.0, seed: int = 0,
            decks: Path | None = None, workers: int | None = None, say: Callable[[str], None] | None = None) -> int:
    """The whole command: check, search, confirm, write; 0 when done, 1 when a file is refused."""
    say = say or (lambda line: print(line, flush=True))  # progress shows at once, in a log file too
    try:
        card_set = play.load(file)
        chosen = read_decks(decks, card_set) if decks else {}
        search = searching.read_search(search_file, card_set)
    except (CardSetError, searching.SearchFileError) as error:
        say(_("{file}: refused").format(file=error.source))
        for problem in error.problems:
            say(f"  - {problem}")
        return 1
    for warning in warnings(card_set):
        say(_("warning: {warning}").format(warning=warning))
    for faction, cards in searching.unplayed_cards(card_set).items():
        in_deck = set(chosen.get(faction, ()))
        left = [c for c in cards if c not in in_deck]
        if left:
            say(_("warning: {cards}: in no recommended deck of {faction}, so only a custom deck (--decks) or a deck "
                  "change plays them").format(cards=", ".join(left), faction=faction_name(card_set, faction)))
    folder = out or Path("var") / "balance" / card_set.id
    singles = len(searching.single_edits(search, card_set))
    workers = workers or play.cores()
    say(_("{name}: {variants} single changes to play, then combinations of the most promising; {bot} against {bot}, "
          "seed {seed}, {workers} workers, at most {minutes} minutes").format(
        name=card_set.id, variants=singles, bot=search.bot, seed=seed, workers=workers,
        minutes=report.number(minutes)))

    def progress(p: searching.Progress) -> None:
        say(_("[{done}/{planned}] {changes}: {games} games, {state}; {elapsed} spent, about {left} left").format(
            done=p.done + 1, planned=p.planned, changes=changes_plain(p.variant), games=p.variant.games,
            state=state(p.variant.status), elapsed=duration(p.elapsed), left=duration(p.remaining)))

    def changes_plain(variant: searching.Variant) -> str:
        return "; ".join(e.words(runner.variants[0]) for e in variant.edits) or _("the original set")

    def confirming(variant: searching.Variant) -> None:
        say(_("confirming with {bot}: {changes}").format(bot=search.confirm.bot, changes=changes_plain(variant)))

    runner = searching.Search(card_set, search, seed=seed, minutes=minutes, workers=workers, decks=chosen,
                              on_progress=progress)
    result = runner.run(confirming)
    paths = write(result, folder, str(search_file))
    if result.stopped_early:
        say(_("the time budget ended the search: {played} of {planned} variants played").format(
            played=len([v for v in result.variants if v.games]), planned=result.planned))
    for rank, variant in enumerate(result.candidates, 1):
        say(f"  {rank}. " + changes_plain(variant))
    if not result.candidates:
        say(_(NONE_BETTER))
    say(_("the report: {html} (and {markdown})").format(html=paths["html"], markdown=paths["markdown"]))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m khan_lab.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="the card-set file (JSON)")
    parser.add_argument("--search", type=Path, required=True, help="the search file (JSON)")
    parser.add_argument("--out", type=Path, help="the report's folder (default var/balance/<card set id>)")
    parser.add_argument("--minutes", type=float, default=30.0, help="the time budget (default 30)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed gives the same candidates")
    parser.add_argument("--decks", type=Path, help="custom decks: {faction: [15 card ids]}")
    parser.add_argument("--workers", type=int, help="processes playing at once (default: one a core)")
    parser.add_argument("--language", default=os.environ.get("BATTLELINE_LANGUAGE"),
                        help=f"the report's language: {', '.join(i18n.LANGUAGES)}")
    args = parser.parse_args(argv)
    if args.language and args.language not in i18n.LANGUAGES:
        parser.error(f"--language: one of {', '.join(i18n.LANGUAGES)}")
    if report.matplotlib_missing():
        print(f"the report's charts need matplotlib: {report.INSTALL_HINT}", file=sys.stderr)
        return 2
    with i18n.speaking(args.language):
        return balance(args.file, args.search, args.out, args.minutes, args.seed, args.decks, args.workers)


if __name__ == "__main__":
    sys.exit(main())
