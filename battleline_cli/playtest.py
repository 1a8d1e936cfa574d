"""``battleline playtest FILE``: the Khan & General playtest lab (``khan_lab``) on a designer's card-set
file, on this machine: no server and no API key. It says what it will play and how long that should
take, shows a progress bar, and tells where the report is, all in the language spoken (``--language``), the report too."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from chalicelib.kernel import i18n
from chalicelib.games.khan.cardset import CardSetError, warnings
from chalicelib.kernel.i18n import _

from .client import Failure


def spoken_duration(seconds: float) -> str:
    if seconds < 60:
        return _("{seconds} s").format(seconds=max(1, round(seconds)))
    return i18n.duration(round(seconds / 60) * 60)  # to the nearest minute (i18n.duration counts whole ones)


class Progress:
    """A progress bar on a terminal (rich); elsewhere a line at every tenth of the games."""

    def __init__(self, total: int) -> None:
        self.total, self.count, self.bar = total, 0, None
        if sys.stdout.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, \
                TimeElapsedColumn, TimeRemainingColumn
            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           TimeRemainingColumn())
            self.task = self.bar.add_task(_("games"), total=total)

    def __enter__(self) -> "Progress":
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *_exc) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __call__(self, _record: dict) -> None:
        self.count += 1
        if self.bar is not None:
            self.bar.advance(self.task)
        elif self.count == self.total or self.count % max(1, self.total // 10) == 0:
            typer.echo(_("{done} of {games} games played").format(done=self.count, games=self.total))


def playtest(file: Path, games: int, bot: str, seed: int, budget_ms: float, compare: bool, out: Path | None,
             workers: int | None, max_rounds: int) -> None:
    from khan_lab import lab, play, report

    if report.matplotlib_missing():
        raise Failure(_("the report's charts need matplotlib, which is not installed: {command}").format(
            command=report.INSTALL_HINT))
    try:
        card_set = play.load(file)
    except CardSetError as error:
        typer.echo(_("{file}: refused").format(file=file), err=True)
        for problem in error.problems:
            typer.echo(f"  - {problem}", err=True)
        raise typer.Exit(1) from None
    for warning in warnings(card_set):  # valid, but most likely not meant: worth knowing before 500 games
        typer.echo(_("warning: {warning}").format(warning=warning))
    try:
        play.make_bot(bot, budget_ms)
    except play.BotUnavailable:
        raise Failure(_("no Khan & General bot {bot!r}: choose one of {bots}").format(
            bot=bot, bots=i18n.either(play.bot_names()))) from None
    workers = workers or play.cores()
    plan = play.plan_for(card_set, bot=bot, games=games, seed=seed, workers=workers, budget_ms=budget_ms,
                         max_rounds=max_rounds, path=str(file.resolve()))
    folder = out or Path("var") / "playtest" / card_set.id
    typer.echo(_("{name}: {id} version {version} (digest {digest})").format(
        name=card_set.named(i18n.language()) or card_set.name, id=card_set.id, version=card_set.version, digest=card_set.digest))
    typer.echo(_("{games} games of {bot} against {bot}, at most {rounds} rounds each, seed {seed}, "
                 "on {workers} of this machine's {cores} cores").format(
        games=games, bot=bot, rounds=max_rounds, seed=seed, workers=workers, cores=play.cores()))
    estimate = play.estimate(plan)
    expected = estimate.seconds * (2 if compare else 1)
    if bot == play.MCTS:
        how = _("{decisions} decisions a game × {budget} ms a decision").format(
            decisions=i18n.number(estimate.decisions), budget=i18n.number(budget_ms))
    else:
        how = _("{decisions} decisions a game × {ms} ms a decision, measured").format(
            decisions=i18n.number(estimate.decisions), ms=i18n.number(estimate.per_decision * 1000, 2))
    typer.echo(_("expected run time: about {time} ({how}){compared}").format(
        time=spoken_duration(expected), how=how,
        compared=_(", with the default set's games for the comparison") if compare else ""))
    with Progress(games * (2 if compare else 1)) as progress:
        run = lab.measure(plan, card_set, estimate, progress, compare=compare)
    paths = report.write(run, folder)
    typer.echo(_("played in {time}").format(time=spoken_duration(run.seconds + (run.compared.seconds
                                                                                if run.compared else 0))))
    named = {f.id: f.named(i18n.language()) or f.name for f in card_set.factions}
    for faction in run.figures["factions"]:
        typer.echo("  " + _("{faction} won {rate} of the games ({low} to {high})").format(
            faction=named[faction["id"]], rate=i18n.percent(faction["rate"]), low=i18n.percent(faction["low"]),
            high=i18n.percent(faction["high"])))
    typer.echo(_("the report: {html} (and {markdown})").format(html=paths["html"], markdown=paths["markdown"]))
