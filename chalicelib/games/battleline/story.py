"""A Battle Line game told to people: what each event was, in the game's words and with the
players' names (``tell``), and the counts a player follows (``counts``). From a seat's view and
the events as that seat sees them (API shapes): nothing hidden from the seat can be told."""

from __future__ import annotations

from ...kernel import i18n
from ...kernel.i18n import N_, _, ngettext, series
from ..presenters import names as names_of
from ..presenters import tell_lobby, unplayed_line
from .cards import parse_troop

TACTIC_NAMES = {
    "ALEXANDER": N_("Alexander"), "DARIUS": N_("Darius"), "COMPANION": N_("Companion Cavalry"),
    "SHIELD": N_("Shield Bearers"), "FOG": N_("Fog"), "MUD": N_("Mud"), "SCOUT": N_("Scout"),
    "REDEPLOY": N_("Redeploy"), "DESERTER": N_("Deserter"), "TRAITOR": N_("Traitor"),
}


def card_name(card: str) -> str:
    """A card as people read it: a troop by its notation (``8G``), a tactic by its full name."""
    return card if parse_troop(card) else _(TACTIC_NAMES.get(card, card))


# What each tactics card stands for, as the board page says it (pages/board_battleline.py's rules).
TACTIC_RULES = {
    "ALEXANDER": N_("a leader, any colour and value; one leader each"),
    "DARIUS": N_("a leader, any colour and value; one leader each"),
    "COMPANION": N_("an 8 of any colour"),
    "SHIELD": N_("a 1, 2 or 3 of any colour"),
    "FOG": N_("the higher total wins the flag, formations do not count"),
    "MUD": N_("four cards a side at the flag"),
    "SCOUT": N_("draw three cards, then put two back"),
    "REDEPLOY": N_("move a card of yours to another flag, or discard it"),
    "DESERTER": N_("discard a card of your opponent's"),
    "TRAITOR": N_("take a troop of your opponent's to your side"),
}


def tactic_rule(card: str) -> str:
    """What a tactics card stands for or does, in the language spoken ("an 8 of any colour"); "" for
    a troop."""
    return _(TACTIC_RULES[card]) if card in TACTIC_RULES else ""


def described(card: str) -> str:
    """A card for a newcomer: a tactic by its name and what it stands for or does ("Companion Cavalry
    (an 8 of any colour)", "攻击卡（任意颜色的8）"), as the board page tells it; a troop by its
    notation (``8G``). The hand and the table in emails and on the command line say it so."""
    if card not in TACTIC_RULES:
        return card_name(card)
    return i18n.aside(card_name(card), tactic_rule(card))


def card_names(view: dict) -> dict[str, str]:
    """Each tactic by its full name in the language spoken (a troop reads as its notation)."""
    return {card: card_name(card) for card in TACTIC_NAMES}


def flags_named(numbers: list[int]) -> str:
    """Flags in words: "flag 3", "flags 2, 4 and 7"."""
    listed = [str(n) for n in numbers]
    return ngettext("flag {flags}", "flags {flags}", len(listed)).format(flags=i18n.listed(listed))


def _deck(deck: str) -> str:
    return _("the troop deck") if deck == "troop" else _("the tactics deck")


REASONS = {
    "adjacent_flags": N_("three adjacent flags"), "stall": N_("no one could play on"), "resign": N_("resignation"),
    "timeout": N_("time ran out"), "withdrawn": N_("withdrawal"), "match": N_("the match"),
    "forfeit": N_("forfeit, no first move in time"),
}


def reason(result: dict) -> str:
    """Why a game ended, in words."""
    code = result["reason"]
    if code == "flag_count":
        held = (result.get("flags") or {}).get(str(result.get("winner")), 5)
        return ngettext("{count} flag", "{count} flags", held).format(count=held)
    return _(REASONS[code]) if code in REASONS else code.replace("_", " ")


def result_line(result: dict, names: dict[int, str], you: int | None) -> str:
    """Who won and how (or who declined or called off a game that never began)."""
    unplayed = unplayed_line(result, names, you)
    if unplayed is not None:
        return unplayed
    if result.get("winner") is None:
        return _("A draw ({reason})").format(reason=reason(result))
    if result["winner"] == you:
        return _("You won ({reason})").format(reason=reason(result))
    return _("{name} won ({reason})").format(name=names.get(result["winner"], "?"), reason=reason(result))


def tell(event: dict, view: dict) -> str | None:
    """One event in a sentence, or None for one nobody needs told (claiming nothing)."""
    kind, data, seat = event["type"], event["data"], event["seat"]
    names, you = names_of(view), view["you"]
    who = _("You") if seat is not None and seat == you else names.get(seat, "?")
    if kind == "play":
        card = data["card"]
        if card == "REDEPLOY":
            target = data["target"]
            if data.get("discard") or data.get("to_flag") is None:
                return _("{who} played Redeploy: {card} left flag {flag} for the discards").format(
                    who=who, card=card_name(target["card"]), flag=target["flag"])
            return _("{who} played Redeploy: {card} moved from flag {flag} to flag {to}").format(
                who=who, card=card_name(target["card"]), flag=target["flag"], to=data["to_flag"])
        if card == "DESERTER":
            target = data["target"]
            return _("{who} played Deserter: {card} at flag {flag} was discarded").format(
                who=who, card=card_name(target["card"]), flag=target["flag"])
        if card == "TRAITOR":
            target = data["target"]
            return _("{who} played Traitor: {card} went from flag {flag} to flag {to}").format(
                who=who, card=card_name(target["card"]), flag=target["flag"], to=data["to_flag"])
        if card == "SCOUT":
            return _("{who} played Scout").format(who=who)
        return _("{who} played {card} at flag {flag}").format(who=who, card=card_name(card), flag=data["flag"])
    if kind == "claim":
        if not data["flags"]:
            return None
        if data.get("auto"):
            return _("{flags} claimed for {who}").format(flags=flags_named(data["flags"]).capitalize(), who=who)
        return _("{who} claimed {flags}").format(who=who, flags=flags_named(data["flags"]))
    if kind in ("draw", "scout_draw"):
        if "card" in data:
            return _("{who} drew {card} from {deck}").format(who=who, card=card_name(data["card"]), deck=_deck(data["deck"]))
        return _("{who} drew from {deck}").format(who=who, deck=_deck(data["deck"]))
    if kind == "scout_return":
        if "cards" in data:
            return _("{who} put {cards} back on the decks").format(who=who, cards=" ".join(map(card_name, data["cards"])))
        count = len(data.get("decks", []))
        return ngettext("{who} put {count} card back on the decks", "{who} put {count} cards back on the decks",
                        count).format(who=who, count=count)
    if kind == "mud_discard":
        return _("{who} discarded {card} from flag {flag} (Mud)").format(who=who, card=card_name(data["card"]),
                                                                       flag=data["flag"])
    if kind == "pass":
        return _("{who} passed").format(who=who)
    if kind == "resign":
        return _("{who} resigned").format(who=who)
    if kind == "timeout":
        return _("{who} ran out of time").format(who=who)
    if kind == "withdrawn":
        return _("{who} withdrew from the tournament").format(who=who)
    if kind == "forfeit":
        return _("{who} ran out of time without ever moving, and forfeits").format(who=who)
    if kind == "match_game_finished":
        return _("Game {number} of the match: {result}").format(
            number=data.get("number", "?"), result=result_line(data["result"], names, you))
    if kind == "game_finished":
        return result_line(data["result"], names, you)
    return tell_lobby(event, view, result_line)


def counts(view: dict) -> list[str]:
    """What a player keeps count of: the decks, every hand, the tactics played, the discards, and
    the flags they could claim."""
    state, names, you = view["state"], names_of(view), view["you"]

    def whose(seat: str) -> str:
        return _("you") if you is not None and int(seat) == you else names.get(int(seat), "?")

    close = i18n.full_width()  # written without spaces: its own commas
    comma, semicolon = ("、", "；") if close else (", ", "; ")
    decks = state["decks"]
    lines = [series([ngettext("Decks: {troop} troop card", "Decks: {troop} troop cards", decks["troop"]).format(
        troop=decks["troop"])] + ([ngettext("{tactics} tactics card", "{tactics} tactics cards",
                                           decks["tactics"]).format(tactics=decks["tactics"])]
                                 if state.get("tactics") else []))]
    lines.append(_("Hands: {hands}").format(hands=series([
        ngettext("{who} {count} card", "{who} {count} cards", n).format(who=whose(seat), count=n)
        for seat, n in sorted(state["hand_sizes"].items())])))
    if state.get("tactics"):
        lines.append(_("Tactics played: {played}").format(played=series(
            [ngettext("{who} {count} card", "{who} {count} cards", n).format(who=whose(seat), count=n)
             if i18n.language() != "en" else f"{whose(seat)} {n}" for seat, n in sorted(state["tactics_played"].items())])))
    discarded = [f"{whose(seat)}{'：' if close else ': '}{(comma if close else ' ').join(map(card_name, cards))}"
                 for seat, cards in sorted(state["discards"].items()) if cards]
    if discarded:
        lines.append(_("Discarded: {cards}").format(cards=semicolon.join(discarded)))
    claimable = state.get("claimable") or []
    if claimable:
        lines.append(_("You can claim {flags}").format(flags=flags_named(claimable)))
    return lines


def options_told(view: dict) -> list[str]:
    """The options a player asked to play needs to know (tactics, claim timing, a match), in sentences."""
    options, lines = view.get("options") or {}, []
    if options.get("players", 2) == 3:
        lines.append(_("The three-player ring, without tactics cards."))
    elif options.get("tactics", True) is False:
        lines.append(_("Without tactics cards."))
    else:
        lines.append(_("With the tactics cards."))
    timing = {"start": _("Claims at the start of a turn."), "end": _("Claims at the end of a turn.")}
    if options.get("claim_timing") in timing:
        lines.append(timing[options["claim_timing"]])
    games = options.get("match_games", 1)
    if games > 1:
        lines.append(ngettext("A match of {count} game.", "A match of {count} games.", games).format(count=games))
    return lines


def turn_label(state: dict) -> str:
    return _("turn {turn}").format(turn=state.get("turn", "?"))
