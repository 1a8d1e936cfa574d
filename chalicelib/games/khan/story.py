"""A Khan & General game told to people: what each event was, with the players' names and the
card set's own card names (``tell``), and the card economy a player follows (``counts``). From a
seat's view and the events as that seat sees them: nothing hidden from it can be told.

Card names are the card set's (data, written by its designer, not translated by the catalog):
each entry's ``names`` map gives its name in the reader's language, falling back to its English
``name`` (``full_name``). An older file's name may be bilingual in one string ("Heavy cavalry
重骑兵"): sentences use its part in the reader's script (``short_name``), legends and hands the
whole name. A command without a name is called by its id in words ("stand_firm": "Stand firm")."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from ...kernel import i18n
from ...kernel.i18n import N_, _, language, ngettext, sentences, series
from ..presenters import names as names_of
from ..presenters import tell_lobby, unplayed_line
from .steps import FACING_WORDS
from .cardset import REGISTRY, CardSet, CardSetChanged, Command, UnitType, UnknownCardSet


# ---------------------------------------------------------------- the card set's names

def card_set_of(state: dict) -> CardSet | None:
    """The card set a view's state names (None when this server does not know it)."""
    found = state.get("card_set") or {}
    try:
        return REGISTRY.get(found["id"], found["version"])
    except (KeyError, UnknownCardSet, CardSetChanged):
        return None


def full_name(entry: UnitType | Command) -> str:
    """A card's name in the language spoken, as its card set writes it: its ``names`` entry for the
    language, else its (English) ``name``, else (a command without one) its id in words."""
    return entry.named(language()) or entry.name or entry.id.replace("_", " ").capitalize()


def faction_name(cards: CardSet | None, faction_id: str) -> str:
    """A faction in the language spoken ("汗王（骑兵）"), by its card set (an unknown set: its id)."""
    found = next((f for f in cards.factions if f.id == faction_id), None) if cards else None
    return (found.named(language()) or found.name) if found is not None else faction_id


def set_name(cards: CardSet) -> str:
    """The card set's name in the language spoken."""
    return cards.named(language()) or cards.name


def set_with_version(cards: CardSet) -> str:
    """The card set's name, with its version when it is not the first: a balance candidate (the set's
    next version) is told apart from the set it came from."""
    if cards.version == 1:
        return set_name(cards)
    return _("{name}, version {version}").format(name=set_name(cards), version=cards.version)


_SCRIPTS = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "IDEOGRAPHIC")
_CJK_LANGUAGES = ("zh", "ja", "ko")


def _is_cjk(word: str) -> bool:
    return any(unicodedata.name(ch, "").startswith(_SCRIPTS) for ch in word)


def short_name(name: str) -> str:
    """A bilingual name's part in the language spoken ("Heavy cavalry 重骑兵": "Heavy cavalry";
    speaking Chinese or Japanese, "重骑兵"); a name in one script is itself."""
    words = name.split()
    cjk = [_is_cjk(w) for w in words]
    if all(cjk) or not any(cjk):
        return name
    want = language().split("_")[0].split("-")[0] in _CJK_LANGUAGES
    return " ".join(w for w, is_cjk in zip(words, cjk) if is_cjk == want)


def card_names(view: dict) -> dict[str, str]:
    """Each card id of the game's card set, as the set names it in full (an unknown set: empty)."""
    cards = card_set_of(view["state"])
    if cards is None:
        return {}
    return {card_id: full_name(entry) for card_id, entry in {**cards.units, **cards.commands}.items()}


def name_of(cards: CardSet | None, card_id: str, *, short: bool = True) -> str:
    """A card as people read it: its card set's name in the language spoken (short: of an older
    bilingual name, the part in the language's script)."""
    entry = (cards.units.get(card_id) or cards.commands.get(card_id)) if cards else None
    if entry is None:
        return card_id.replace("_", " ").capitalize()
    own = entry.named(language())
    if own:
        return own
    return short_name(full_name(entry)) if short else full_name(entry)


KINDS = {"attack": N_("attack"), "defend": N_("defence"), "move": N_("move")}


def square(at: dict | None) -> str:
    return f"({at['x']}, {at['y']})" if at else "?"


def _squares(found: list[dict]) -> str:
    return i18n.listed([square(at) for at in found])


FACINGS = FACING_WORDS  # said as a step says them (steps.py)
REASONS = {"annihilation": N_("every unit destroyed"), "routed": N_("no unit left on the field"),
           "max_rounds": N_("the last round ended"), "draw_agreed": N_("a draw agreed"),
           "resign": N_("resignation"), "timeout": N_("time ran out"), "withdrawn": N_("withdrawal"),
           "forfeit": N_("forfeit, no first move in time")}


def facing(code: str) -> str:
    return _(FACINGS[code]) if code in FACINGS else code


def reason(result: dict) -> str:
    """Why a game ended, in words; after the last round, with the score that decided it."""
    code = result["reason"]
    why = _(REASONS[code]) if code in REASONS else code.replace("_", " ")
    if code == "max_rounds" and result.get("destroyed"):
        kills = result["destroyed"]
        wounds = result.get("wounded") or {}
        why = _("{why}: units destroyed {one} to {two}, wounds {w1} to {w2}").format(
            why=why, one=kills.get("1", 0), two=kills.get("2", 0), w1=wounds.get("1", 0), w2=wounds.get("2", 0))
    return why


def result_line(result: dict, names: dict[int, str], you: int | None) -> str:
    """Who won and how (or who declined or called off a game that never began)."""
    unplayed = unplayed_line(result, names, you)
    if unplayed is not None:
        return unplayed
    why = reason(result)
    if result.get("winner") is None:
        return _("A draw ({reason})").format(reason=why)
    if result["winner"] == you:
        return _("You won ({reason})").format(reason=why)
    return _("{name} won ({reason})").format(name=names.get(result["winner"], "?"), reason=why)


# ---------------------------------------------------------------- an event in a sentence

def tell(event: dict, view: dict) -> str | None:
    """One event in a sentence, or None for one nobody needs told (a phase ending, a keyword
    skipped, staying put)."""
    kind, data, seat = event["type"], event["data"], event["seat"]
    names, you = names_of(view), view["you"]
    cards = card_set_of(view["state"])
    mine = seat is not None and seat == you
    who = _("You") if mine else names.get(seat, "?")

    def card(card_id: str) -> str:
        return name_of(cards, card_id)

    def whose(owner: int | None) -> str | None:
        """The owner's name (None: the reader's own)."""
        return None if owner is not None and owner == you else names.get(owner, "?")

    told = _TELLERS.get(kind)
    if told is not None:
        return told(data, _Teller(seat, who, mine, card, whose))
    if kind == "turn_started":
        cards_allowed = ngettext("{count} card", "{count} cards", data["cards"]).format(count=data["cards"])
        if mine:
            return _("Round {round}: your turn, up to {cards}").format(round=data["round"], cards=cards_allowed)
        return _("Round {round}: {name}'s turn, up to {cards}").format(round=data["round"], name=who,
                                                                      cards=cards_allowed)
    if kind == "reaction_window":
        reacting = data.get("seat")
        if reacting == you:
            return _("You may answer with defence commands (the reaction window)")
        return _("{name} may answer with defence commands (the reaction window)").format(
            name=names.get(reacting, "?"))
    if kind == "game_finished":
        return result_line(data["result"], names, you)
    return tell_lobby(event, view, result_line)


@dataclass(frozen=True)
class _Teller:
    """What every sentence of one event needs: the acting seat, as named to the reader."""

    seat: int
    who: str  # the acting seat's name, or "You"
    mine: bool  # the reader acted
    card: Callable[[str], str]  # a card id in words
    whose: Callable[[int | None], str | None]  # an owner's name (None: the reader's own)


def _place(data: dict, t: _Teller) -> str:
    return _("{who} placed {unit} face up at {at}, facing {facing}").format(
        who=t.who, unit=t.card(data["unit"]), at=square(data["at"]), facing=facing(data.get("facing", "")))


def _deploy(data: dict, t: _Teller) -> str:
    if data.get("unit"):  # told to its owner only
        return _("{who} deployed {unit} face down at {at}, facing {facing}").format(
            who=t.who, unit=t.card(data["unit"]), at=square(data["at"]), facing=facing(data["facing"]))
    return _("{who} deployed a unit face down at {at}, facing {facing}").format(
        who=t.who, at=square(data["at"]), facing=facing(data["facing"]))


def _flip(data: dict, t: _Teller) -> str:
    return _("{who} turned {unit} at {at} face up").format(who=t.who, unit=t.card(data["unit"]), at=square(data["at"]))


def _defence_discarded(data: dict, t: _Teller) -> str:
    return _("{who} discarded {card} from the unit at {at}").format(who=t.who, card=t.card(data["card"]),
                                                                   at=square(data["at"]))


def _command(data: dict, t: _Teller) -> str:
    played = t.card(data["card"])
    if data.get("reaction"):
        line = _("{who} answered with {card} on the unit at {at}").format(who=t.who, card=played,
                                                                         at=square(data["at"]))
    else:
        line = _("{who} played {card} on the unit at {at}").format(who=t.who, card=played, at=square(data["at"]))
    if data.get("sequence"):
        paid = ngettext("{count} card", "{count} cards", data.get("paid", 0)).format(count=data.get("paid", 0))
        line += _(", paid with sequence {sequence} ({cards} to the discards)").format(
            sequence=data["sequence"], cards=paid)
    return line


def _pay(data: dict, t: _Teller) -> str:
    size = data.get("size", 1)
    if data.get("card"):  # told to the payer only (and not even to it with the advanced rules)
        if size == 1:
            return _("{who} paid {card} face down as a new sequence {sequence}").format(
                who=t.who, card=t.card(data["card"]), sequence=data["sequence"])
        return _("{who} paid {card} face down into sequence {sequence}, now {size} cards").format(
            who=t.who, card=t.card(data["card"]), sequence=data["sequence"], size=size)
    if size == 1:
        return _("{who} paid a card face down as a new sequence {sequence}").format(who=t.who,
                                                                                   sequence=data["sequence"])
    return _("{who} paid a card face down into sequence {sequence}, now {size} cards").format(
        who=t.who, sequence=data["sequence"], size=size)


def _move(data: dict, t: _Teller) -> str:
    if data["from"] == data["to"]:
        return _("{who} turned the unit at {at} to face {facing}").format(who=t.who, at=square(data["to"]),
                                                                         facing=facing(data["facing"]))
    return _("{who} moved the unit at {start} to {end}, facing {facing}").format(
        who=t.who, start=square(data["from"]), end=square(data["to"]), facing=facing(data["facing"]))


def _turn(data: dict, t: _Teller) -> str:
    return _("{who} turned the unit at {at} to face {facing}").format(who=t.who, at=square(data["at"]),
                                                                     facing=facing(data["facing"]))


def _advance(data: dict, t: _Teller) -> str:
    return _("{who} advanced from {start} into {end}").format(who=t.who, start=square(data["from"]),
                                                             end=square(data["to"]))


OUTCOMES = {"held": N_("the defence held"), "wounded": N_("wounded"), "destroyed": N_("destroyed")}


def _engagement(data: dict, t: _Teller) -> str:
    attackers = data.get("attackers") or []
    outcome = _(OUTCOMES[data["outcome"]]) if data.get("outcome") in OUTCOMES else data.get("outcome", "")
    values = {"who": t.who, "target": square(data["target"]), "attackers": _squares(attackers),
              "attack": data["attack"], "defence": data["defence"], "outcome": outcome}
    defender = t.whose(3 - t.seat)  # the attacker's opponent
    if defender is None:  # the reader's own unit was attacked
        line = ngettext("{who} attacked your unit at {target} from {attackers}: attack {attack} against defence "
                        "{defence}, {outcome}",
                        "{who} attacked your unit at {target} from {attackers} together: attack {attack} against "
                        "defence {defence}, {outcome}", len(attackers)).format(**values)
    else:
        line = ngettext("{who} attacked {name}'s unit at {target} from {attackers}: attack {attack} against "
                        "defence {defence}, {outcome}",
                        "{who} attacked {name}'s unit at {target} from {attackers} together: attack {attack} "
                        "against defence {defence}, {outcome}", len(attackers)).format(name=defender, **values)
    if data.get("countered"):
        line += _("; the counter wounded the attacker at {at}").format(at=square(data["countered"]))
    if data.get("grappled"):
        line += _("; the unit at {at} is grappled").format(at=square(data["grappled"]))
    if data.get("grappled_attacker"):
        line += _("; the attacker at {at} is grappled").format(at=square(data["grappled_attacker"]))
    return line


def _revealed(data: dict, t: _Teller) -> str:
    if t.whose(data.get("owner")) is None:
        return _("Your unit at {at} was turned face up: {unit}").format(at=square(data["at"]), unit=t.card(data["unit"]))
    return _("{name}'s unit at {at} was turned face up: {unit}").format(
        name=t.whose(data.get("owner")), at=square(data["at"]), unit=t.card(data["unit"]))


def _destroyed(data: dict, t: _Teller) -> str:
    if t.whose(data.get("owner")) is None:
        return _("Your {unit} at {at} was destroyed").format(unit=t.card(data["unit"]), at=square(data["at"]))
    return _("{name}'s {unit} at {at} was destroyed").format(name=t.whose(data.get("owner")), unit=t.card(data["unit"]),
                                                            at=square(data["at"]))


def _turn_ended(data: dict, t: _Teller) -> str:
    back = data.get("returned_to_hand", 0)
    if not back:
        return _("You ended your turn") if t.mine else _("{who} ended the turn").format(who=t.who)
    if t.mine:
        return ngettext("You ended your turn; {count} card went back to your hand",
                        "You ended your turn; {count} cards went back to your hand", back).format(count=back)
    return ngettext("{who} ended the turn; {count} card went back to the hand",
                    "{who} ended the turn; {count} cards went back to the hand", back).format(who=t.who, count=back)


def _said(sentence: str):
    return lambda data, t: _(sentence).format(who=t.who)


_TELLERS = {
    "place": _place, "deploy": _deploy, "flip": _flip, "defence_discarded": _defence_discarded,
    "command": _command, "pay": _pay, "move": _move, "turn": _turn, "advance": _advance,
    "engagement": _engagement, "revealed": _revealed, "destroyed": _destroyed, "turn_ended": _turn_ended,
    "draw_offered": _said(N_("{who} offered a draw")), "draw_declined": _said(N_("{who} declined the draw")),
    "draw_accepted": _said(N_("{who} accepted the draw")), "resign": _said(N_("{who} resigned")),
    "timeout": _said(N_("{who} ran out of time")), "withdrawn": _said(N_("{who} withdrew from the tournament")),
    "forfeit": _said(N_("{who} ran out of time without ever moving, and forfeits")),
    # the window's defence commands, if any, are told as commands ("answered with"); its end closes what
    # "may answer with defence commands" opened, for the seat that waited on it
    "reaction_ended": _said(N_("{who} ended the reaction window")),
}


# ---------------------------------------------------------------- the counts

def seat_name(seat: int, names: dict[int, str], you: int | None) -> str:
    """A seat as people read it: "You" for the reader's own, else the player's name."""
    return _("You") if you is not None and seat == you else names.get(seat, _("Seat {seat}").format(seat=seat))


_close = i18n.full_width


def items(words) -> str:
    """Names in a row as the language writes them: "Heavy cavalry, Lance" / "重骑兵、长枪"."""
    return i18n.series(list(words))


def clauses(parts) -> str:
    """Phrases of one sentence as the language joins them: "power 4, melee" / "力量 4，近战" /
    "戦闘力4、近接" (Japanese joins them with its 読点)."""
    return {"zh-Hans": "，", "ja": "、"}.get(language(), ", ").join(parts)


def _named(cards: CardSet | None, ids: list[str]) -> str:
    return items(name_of(cards, c) for c in ids)


def zone_words(cards: CardSet | None, sequences: list[dict]) -> str:
    """A command zone in words: each sequence's size (a sequence of c cards pays a cost of c),
    with its cards when the reader may look at them."""
    if not sequences:
        return _("empty")
    parts = []
    for number, pile in enumerate(sequences, start=1):
        size = ngettext("{count} card", "{count} cards", pile["size"]).format(count=pile["size"])
        if pile.get("cards"):
            size = _("{label}: {value}").format(label=size, value=_named(cards, pile["cards"]))
        parts.append(_("sequence {number} ({size})").format(number=number, size=size))
    return clauses(parts)


def whose_turn(state: dict, names: dict[int, str], you: int | None) -> str | None:
    """Whose turn it is and how many of its cards it has played (None once the game is over)."""
    active = state.get("active")
    if active is None:
        return None
    limit = state["limits"].get(str(active), 0)
    if active == you:
        return _("Your turn: {played} of {limit} cards played").format(played=state["played"], limit=limit)
    return _("{name}'s turn: {played} of {limit} cards played").format(name=names.get(active, "?"),
                                                                      played=state["played"], limit=limit)


def side_words(state: dict, seat: int, name: Callable[[str], str]) -> tuple[str, str, str, str, str]:
    """A side's counts in words, each card named by ``name``: its hand, card limit, discards (and
    which, when the reader may see them), units left (and which were destroyed), command zone."""
    key = str(seat)
    hand = ngettext("{count} card in hand", "{count} cards in hand", state["hand_sizes"][key]).format(
        count=state["hand_sizes"][key])
    limit = ngettext("up to {count} card a turn", "up to {count} cards a turn",
                     state["limits"][key]).format(count=state["limits"][key])
    pile = state["discards"][key]
    discards = ngettext("{count} discarded", "{count} discarded", pile["size"]).format(count=pile["size"])
    if pile.get("cards"):
        discards = _("{text} ({detail})").format(text=discards, detail=series([name(c) for c in pile['cards']]))
    units = ngettext("{count} unit left", "{count} units left", state["units_left"][key]).format(
        count=state["units_left"][key])
    lost = state.get("destroyed", {}).get(key) or []
    if lost:
        units = series([units, ngettext("{count} destroyed ({units})", "{count} destroyed ({units})", len(lost)).format(
            count=len(lost), units=series([name(c) for c in lost]))])
    return hand, limit, discards, units, zone_words(card_set_of(state), state["sequences"][key])


def counts(view: dict) -> list[str]:
    """The round and whose turn, and for each side (yours first) its hand, card limit, command
    zone, discards and units left (and which were destroyed)."""
    state, names, you = view["state"], names_of(view), view["you"]
    cards = card_set_of(state)
    head = _("Round {round} of {rounds}").format(round=state["round"], rounds=state["max_rounds"])
    turn = whose_turn(state, names, you)
    lines = [sentences(head) + ("" if _close() else " ") + turn if turn else head]
    seats = sorted((int(s) for s in state["hand_sizes"]), key=lambda s: (s != you, s))
    for seat in seats:
        hand, limit, discards, units, zone = side_words(state, seat, lambda c: name_of(cards, c))
        if seat == you:
            lines.append(_("You: {hand}, {limit}, {discards}, {units}").format(
                hand=hand, limit=limit, discards=discards, units=units))
            lines.append(_("Your command zone: {zone}").format(zone=zone))
        else:
            name = seat_name(seat, names, you)
            lines.append(_("{name}: {hand}, {limit}, {discards}, {units}").format(
                name=name, hand=hand, limit=limit, discards=discards, units=units))
            lines.append(_("{name}'s command zone: {zone}").format(name=name, zone=zone))
    return lines


def options_told(view: dict) -> list[str]:
    """The options a player asked to play needs to know (the card set, rounds, advanced rules, the
    seat's side), in sentences."""
    options, state, lines = view.get("options") or {}, view.get("state") or {}, []
    lines.append(_("Card set: {card_set}; at most {rounds} rounds{advanced}.").format(
        card_set=set_with_version(cards) if (cards := card_set_of(state)) else str(options.get("card_set", "?")),
        rounds=options.get("max_rounds", 40),
        advanced=_(", advanced rules") if options.get("advanced") else ""))
    factions = options.get("factions") or state.get("factions") or {}
    mine = factions.get(str(view["you"]))
    if mine:
        lines.append(_("You play the {faction} side.").format(faction=faction_name(card_set_of(state), str(mine))))
    return lines


def turn_label(state: dict) -> str:
    return _("round {round}").format(round=state.get("round", "?"))
