"""A bot account's policy (issue 23): what games it accepts, and why it refuses one. Pure.

A policy (``models.BotPolicy``, kept as the bot's ``bot_policy`` preference) says which game types
it plays, rated games only, unrated only or any, which time controls (by kind: ``none``,
``per_move``, ``bank``, ``fischer``), and the longest turn it accepts. A field left out accepts
anything. createGame and rematchGame ask (one check, ``services/consent.py``): tournaments and
ladders pair a bot whatever its policy says, since it entered them itself.
"""

from __future__ import annotations

from ..clocks import timecontrol
from ..kernel.i18n import _

KINDS = ("none", "per_move", "bank", "fischer")


def control_kind(control: dict | None) -> str:
    """The kind of a game's time control: ``none`` without one."""
    if not control:
        return "none"
    return timecontrol.kind_of(control) or "none"


def refusal(policy: dict | None, game: str, rated: bool, control: dict | None) -> str | None:
    """Why a bot with ``policy`` refuses a ``game`` (rated or not, under ``control``), or None if it
    accepts: the first reason, in words its challenger reads."""
    if not policy:
        return None
    games = policy.get("games")
    if games and game not in games:
        return _("this bot plays only {games}").format(games=", ".join(games))
    if policy.get("rated") == "rated" and not rated:
        return _("this bot plays only rated games")
    if policy.get("rated") == "unrated" and rated:
        return _("this bot plays only unrated games")
    kinds = policy.get("time_controls")
    kind = control_kind(control)
    if kinds and kind not in kinds:
        return _("this bot plays only with the time controls {kinds}, not {kind}").format(
            kinds=", ".join(kinds), kind=kind)
    most = policy.get("max_turn_days")
    if most is not None:
        longest = timecontrol.longest_turn(control) if control else None
        if longest is None or longest > most * timecontrol.DAY:
            return _("this bot plays only games whose turns last at most {days} days").format(days=f"{most:g}")
    return None
