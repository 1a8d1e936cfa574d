"""What `battleline show`, `new` and `log` print (battleline_cli/screens.py), from views and events
as the API gives them: the others' last moves first, in names; whose move; the board with its
sides named; the counts and the claimable flags; the clock; the result in names and why; and
nothing the seat may not see."""

from __future__ import annotations

import re

from chalicelib.kernel import i18n
from battleline_cli import screens
from battleline_cli.screens import duration, screen

from .games import SEATS, finished, positions, secret_positions


def text(view: dict, events: list[dict]) -> str:
    return "\n".join(screen(view, events))


def later_position(game: str, seed: int, turns: int = 12) -> tuple[dict, list]:
    """Seat 1 to move, after a few turns of both."""
    found = [(v, e) for v, e in positions(game, seed, steps=300) if v["you"] == 1 and v["phase"] in ("play",
                                                                                                       "maintenance")]
    return found[min(turns, len(found) - 1)]


def test_battle_line_show_tells_the_opponents_turn_then_the_table_then_the_moves():
    view, events = later_position("battleline", 4)
    shown = text(view, events)
    assert shown.startswith("Battle Line, game g_1: Ann (you) against Bob\n\nSince your last move:\n  Bob played ")
    assert "\nYour move.\n" in shown
    header = next(line for line in shown.split("\n") if "Ann (you)" in line and "Bob" in line and "flag" not in line
                  and "game" not in line)
    assert header.index("Bob") < header.index("Ann (you)")  # their side on the left, yours on the right
    assert len(re.findall(r"^flag \d", shown, re.M)) == 9
    assert re.search(r"^Your hand: (\S+ ){6}\S+$", shown, re.M)
    assert re.search(r"^Decks: \d+ troop cards, \d+ tactics cards?$", shown, re.M)
    assert "Hands: you 7 cards, Bob 7 cards" in shown and "Tactics played: you " in shown
    assert "No clock: no time limit." in shown
    assert "Your move: play a card, then claim flags, then draw a card.\n  play CARD FLAG:\n" in shown
    assert 'battleline play g_1 "play ' in shown and '"claim none" "draw troop"' in shown


def test_claimed_and_claimable_flags_are_marked_with_names():
    view, events = later_position("battleline", 4)
    flags = view["state"]["flags"]
    flags[0]["claimed_by"], flags[1]["claimed_by"] = 2, 1
    view["state"]["claimable"] = [3]
    lines = screen(view, events)
    row = {int(m.group(1)): line for line in lines if (m := re.match(r"flag (\d)", line))}
    assert row[1].endswith("won by Bob") and row[2].endswith("won by you") and row[3].endswith("you can claim it")
    assert "You can claim flag 3" in lines


def test_a_finished_game_says_who_won_and_why_in_names():
    for seed in range(6):
        view, events = finished("battleline", seed, seat=1)
        winner = view["result"]["winner"]
        shown = text(view, events)
        said = "You won (" if winner == 1 else "Bob won ("
        assert f"The game is over: {said}" in shown and "How it ended:" in shown
        assert "Your move" not in shown and "seat " not in shown
        log = "\n".join(screens.log(view, events))
        assert re.search(r"^\s+1\. (You|Bob) played ", log, re.M) and said in log.split("\n")[-1]


def test_a_finished_khan_game_says_who_won_and_why():
    view, events = finished("khan", 1, seat=2)
    shown = text(view, events)
    assert re.search(r"The game is over: (You won|Ann won|A draw) \(.+\)\.", shown)
    assert "How it ended:" in shown


def test_khan_show_names_each_seat_of_the_field():
    view, events = later_position("khan", 2, turns=3)
    shown = text(view, events)
    # with no card set from the server: the factions as the rules' own card set names them, never their ids
    assert "Seat 1 is Ann (you), Khan (cavalry); seat 2 is Bob, General (infantry)." in shown
    with i18n.speaking("zh-Hans"):
        assert "座位1是Ann（你），汗王（骑兵）；座位2是Bob，大将军（步兵）。" in text(view, events)
    # Ann ended her reaction window in Bob's turn: the recap is still his whole turn
    assert "Since your last move:\n  Round 3: Bob's turn, up to 5 cards\n  Bob paid a card face down as a new sequence 1\n" \
        in shown
    assert "Your move: maintenance" in shown and "flip X Y" in shown


def test_a_card_set_names_the_factions_and_the_hand_says_what_each_card_does():
    view, events = later_position("khan", 2, turns=3)
    card_set = {"factions": [{"id": "khan", "name": "Khan (cavalry)"}, {"id": "general", "name": "General"}],
                "units": [{"id": u, "base": 3, "ranged": None} for u in ("heavy_cavalry", "light_cavalry")]
                + [{"id": "horse_archers", "base": 2, "ranged": {"forward": [1, 2], "side": 1}}],
                "commands": [{"id": "charge", "kind": "attack", "cost": 1, "keywords": ["mobility 2", "power +2"]}]}
    shown = "\n".join(screen(view, events, card_set))
    assert "Seat 1 is Ann (you), Khan (cavalry); seat 2 is Bob, General." in shown
    hand = view["state"]["hand"]
    if "charge" in hand:
        assert re.search(r"^    charge( ×2)?: attack command, cost 1: mobility 2, power \+2$", shown, re.M)
    if "horse_archers" in hand:
        assert "horse_archers (power 2, ranged)" in shown


def test_waiting_for_the_opponent_shows_your_own_last_turn():
    view, events = later_position("battleline", 5)
    theirs = {**view, "to_move": 2, "legal_steps": [{"type": "resign"}]}
    done = events + [{"seq": 999, "version": 99, "type": "play", "seat": 1, "data": {"card": "7R", "flag": 3},
                      "at": "2026-11-24T00:00:00.000Z"}]
    shown = text(theirs, done)
    assert "Your last turn:\n  You played 7R at flag 3" in shown and "Bob is to move." in shown
    assert "Your move" not in shown
    bot = {**theirs, "seats": [SEATS[0], {**SEATS[1], "name": "greedy bot", "bot": "greedy"}]}
    assert "greedy bot is to move (a bot: it moves by itself in a moment)." in text(bot, done)


def test_the_clock_says_the_time_left_and_the_deadline():
    view, events = later_position("battleline", 4)
    view["clock"] = {"control": {"per_move_days": 3}, "seats": [
        {"seat": 1, "time_left_seconds": 2 * 86400 + 5 * 3600 + 60, "moves": 4, "running": True,
         "deadline": "2026-11-27T05:40:00.000Z", "paused": False},
        {"seat": 2, "time_left_seconds": 3 * 86400, "moves": 4, "running": False, "deadline": None, "paused": False}]}
    assert ("Clock (3 days a move): You: 2 days, 5 hours left, until Nov 27, 2026 05:40 UTC; Bob: 3 days"
            in text(view, events))
    assert duration(59) == "less than a minute" and duration(3 * 3600 + 120) == "3 hours, 2 minutes"


def test_three_players_each_flag_names_its_two_sides():
    view, events = next((v, e) for v, e in positions("battleline", 1, options={"players": 3}) if v["you"] == 1)
    view["seats"] = SEATS + [{"seat": 3, "player_id": "p_cat", "name": "Cat", "invited": False, "bot": None}]
    lines = [line for line in screen(view, events) if line.startswith("flag ")]
    assert "Bob: " in lines[0] and "you: " in lines[0]
    assert "Bob: " in lines[3] and "Cat: " in lines[3] and "you: " not in lines[3]


def test_the_summary_of_a_new_game_is_short():
    view, _ = later_position("battleline", 4, turns=0)
    lines = screens.summary(view)
    assert lines == ["Battle Line, game g_1: Ann (you) against Bob", "Your move.",
                     "See it with: battleline show g_1 (the board in a browser: battleline board g_1)"]


def test_nothing_in_the_other_hand_is_ever_shown():
    for seed in range(3):
        for view, events, hidden in secret_positions("battleline", seed, steps=250):
            shown = text(view, events)
            for card in hidden:
                assert not re.search(rf"(?<![\w]){card}(?![\w])", shown), (card, shown)


def test_mid_turn_the_opponents_moves_come_before_your_turn_so_far():
    view, events = next((v, e) for v, e in positions("battleline", 4, steps=60)
                        if v["you"] == 1 and v["phase"] == "claim" and len(e) > 10)
    shown = text(view, events)
    assert re.search(r"\nBefore your turn:\n  Bob .+\n(  .+\n)*Your turn so far:\n  You played \w+ at flag \d\n",
                     shown), shown
    assert "Since your last move" not in shown
    assert "Before your turn" not in "\n".join(screen(view, events, own=False))  # play has just said it


def test_a_game_waiting_for_an_invitation_says_so_without_a_name():
    view, events = later_position("battleline", 4, turns=0)
    view = {**view, "status": "waiting", "to_move": None,
            "seats": [SEATS[0], {**SEATS[1], "name": "(invited)", "invited": True, "player_id": None}]}
    assert screens.summary(view)[:2] == ["Battle Line, game g_1: Ann (you) against a player invited by email",
                                         "Waiting for the invited player to accept the invitation sent by email."]
    assert "(invited)" not in text(view, [])


def test_a_waiting_keyword_is_named_in_the_heading():
    steps = [{"type": "move", "at": {"x": 0, "y": 0}, "to": {"x": -1, "y": 0}, "facing": "N"},
             {"type": "skip", "at": {"x": 0, "y": 0}}, {"type": "offer_draw"}, {"type": "resign"}]
    view = {"game_id": "g_1", "game": "khan", "you": 1, "to_move": 1, "phase": "action", "legal_steps": steps,
            "state": {"pending": [{"seat": 1, "at": {"x": 0, "y": 0}, "keywords": ["mobility 2"]}]}}
    from battleline_cli.moves import your_moves
    assert your_moves(view).heading == "Your move: mobility 2 waits on your unit at (0, 0): use it or skip it."


def test_show_quotes_the_opponents_message_since_your_last_move():
    view, events = later_position("battleline", 4)
    last = events[-1]
    said = {"seq": last["seq"] + 1, "version": last["version"], "type": "message", "seat": 2,
            "data": {"text": "Flag 7 will not hold long, Ann."}, "at": last["at"]}
    shown = text(view, [*events, said])
    assert "\nBob says:\n  > Flag 7 will not hold long, Ann.\n" in shown
    assert shown.index("Bob says:") < shown.index("Your move.")
    assert "says:" not in text(view, events)


def test_a_game_that_never_began_says_who_declined_or_called_it_off_and_whom_it_waits_for():
    view, _ = later_position("battleline", 4, turns=0)
    declined = {**view, "status": "finished", "to_move": None, "result": {"winner": None, "reason": "declined", "seat": 2}}
    assert screens.whose_move(declined) == "The game is over: Bob declined the game."
    aborted = {**declined, "result": {"winner": None, "reason": "aborted", "seat": 1}}
    assert screens.whose_move(aborted) == "The game is over: You called the game off before its first move."
    for shown in (text(declined, []), text(aborted, [])):
        assert "draw" not in shown.split("\n")[2].lower() and "None" not in shown and "seat " not in shown
    asked = {**view, "status": "waiting", "to_move": None, "seats": [SEATS[0], {**SEATS[1], "invited": True}]}
    assert screens.whose_move(asked) == "Waiting for Bob to accept."
    mine = {**asked, "you": 2}
    assert screens.whose_move(mine).startswith("Waiting for your answer: accept or decline the game")


def test_declined_and_aborted_results_read_as_such_in_both_games():
    from chalicelib.games.battleline.story import result_line as battleline_line
    from chalicelib.games.khan.story import result_line as khan_line

    names = {1: "Ann", 2: "Bob"}
    for line in (battleline_line, khan_line):
        assert line({"winner": None, "reason": "declined", "seat": 2}, names, 1) == "Bob declined the game"
        assert line({"winner": None, "reason": "declined", "seat": 2}, names, 2) == "You declined the game"
        assert line({"winner": None, "reason": "aborted", "seat": 1}, names, 2) == \
            "Ann called the game off before its first move"
        assert line({"winner": None, "reason": "aborted", "seat": None}, names, None) == \
            "The game was called off before its first move"
