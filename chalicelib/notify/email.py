"""Notification emails, for a correspondence player: multipart text + HTML, built from the
receiver's own view of the game (so nothing hidden from that seat can appear).

Every email of a game to one player has the same subject ("Battle Line with Bob (game g_…)")
and is threaded (``In-Reply-To``/``References``) to a root Message-ID made from the game and the
player; what changed is its first line: what the others just did, in their names, and whose
move it is (or who won and why). Then the table (Battle Line: a flag a row, readable on a
phone), the hand, the counts, the claimable flags and the clock; and, on the seat's move, its
moves: Battle Line's card x flag grid of links (each opens a page that plays the whole turn:
the play, the claim and the draw), the other steps grouped, the board page, resign apart, and
the reply syntax (a reply plays). A player asked to play a game someone else made (``consent``)
is shown who asks, the game's options and two links, Accept and Decline (each opens a page whose
button answers), and may reply "accept" or "decline"; their cards are not shown before they
answer. One-click unsubscribe headers (RFC 8058), and ``Auto-Submitted: auto-generated`` (RFC
3834) on every email, so that auto-responders do not answer it (mailplay/answering.py)."""

from __future__ import annotations

import os
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid, parseaddr

from ..games.presenters import PRESENTERS, seat_name
from ..kernel import i18n
from ..clocks import timecontrol
from ..ladders import positions as ladders
from ..kernel.i18n import _, ngettext
from ..presenting import show
from ..presenting.links import Links, bare_address, standings_csv_path, standings_page_path
from ..presenting.templates import render
from ..store.records import Message, Player

TURN_MESSAGES = ("game.your_turn", "game.reminder")


# ---------------------------------------------------------------- headers

AUTO_SUBMITTED = "auto-generated"  # what every email we send says (RFC 3834)


def automatic(message: EmailMessage) -> EmailMessage:
    """Mark ``message`` as a machine's (RFC 3834 ``Auto-Submitted: auto-generated``), once: the
    composers mark every email they make, and each transport makes sure, whatever path made it."""
    if message["Auto-Submitted"] is None:
        message["Auto-Submitted"] = AUTO_SUBMITTED
    return message


def unsubscribable(message: EmailMessage, url: str) -> EmailMessage:
    """Give ``message`` its one-click unsubscribe (RFC 2369 ``List-Unsubscribe`` and RFC 8058
    ``List-Unsubscribe-Post``) to ``url``."""
    message["List-Unsubscribe"] = f"<{url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def mail_from(game: str | None = None) -> str:
    """The sender (``MAIL_FROM``); a game's email comes from that game by its name in the reader's
    language ("Khan & General", "汗王与大将军"), at the same address."""
    configured = os.environ.get("MAIL_FROM", "Battle Line <play@battleline.localhost>")
    if game is None or game not in PRESENTERS:
        return configured
    return formataddr((PRESENTERS[game].title, parseaddr(configured)[1]))


# ---------------------------------------------------------------- threads


def thread_root(game_id: str, player_id: str, domain: str) -> str:
    """The Message-ID every email of this game to this player refers to (the first one, the
    invitation, carries it): one thread per game and player."""
    return f"<game.{game_id}.{player_id}@{domain}>"


def message_id(message_key: str, domain: str) -> str:
    """An email's own Message-ID, stable for an outbox message (a retried send is the same email)."""
    return f"<{message_key}@{domain}>"


def threaded(email: EmailMessage, root: str, parent: str | None = None) -> None:
    """File ``email`` in the thread under ``root`` (a reply also answers ``parent``)."""
    email["In-Reply-To"] = parent or root
    email["References"] = f"{root} {parent}" if parent and parent != root else root


# ---------------------------------------------------------------- what the email says


def first_line(message: Message, player: Player, view: dict) -> str:
    """The email's first line: what the others just did and whose move it is (who won and why);
    an invitation says first who started the game and against whom, a reminder that it is still
    the seat's move, and how long it has."""
    line = show.first_line(view)
    game, players = show.title(view), show.listed(show.others(view))
    if message.type == "game.invited" or starts(message):
        creator = message.data.get("created_by") or view.get("created_by")
        inviter = next((seat_name(s) for s in view["seats"] if creator and s.get("player_id") == creator), None)
        ladder = message.data.get("ladder")
        if creator and creator == player.id:
            intro = _("You started a game of {game} against {players}.").format(game=game, players=players)
        elif ladder and inviter is not None and show.waits_for(view):
            intro = i18n.sentences(
                _("{inviter} challenges you on the {ladder}: a game of {game}.").format(
                    inviter=inviter, ladder=ladders.name(ladder["id"], ladder["name"]), game=game),
                _("Accept by {time} UTC; declining or not answering counts as a loss.").format(
                    time=ladder["respond_by"][:16].replace("T", " ")))
        elif inviter is not None and show.waits_for(view):
            intro = _("{inviter} asks you to play a game of {game}.").format(inviter=inviter, game=game) \
                if show.others(view) == [inviter] else _("{inviter} asks you to play a game of {game} against "
                                                          "{players}.").format(inviter=inviter, game=game,
                                                                               players=players)
        elif inviter is not None:
            intro = _("{inviter} invited you to a game of {game}: you play against {players}.").format(
                inviter=inviter, game=game, players=players)
        else:
            intro = _("A game of {game} against {players} was made for you.").format(game=game, players=players)
        return i18n.sentences(intro, line)
    if message.type == "game.reminder":
        return i18n.sentences(reminder_line(message.data.get("reminder")), show.clock_line(view), *show.recap(view))
    if message.type == "ladder.rank_changed":
        data = message.data
        moved = _("{ladder}: you are now number {rank} (you were number {before}).").format(
            ladder=ladders.name(data["ladder"]["id"], data["ladder"]["name"]), rank=data["rank"],
            before=data["rank_before"])
        return i18n.sentences(moved, line)
    return line


def never_began(message: Message, player: Player, view: dict) -> bool:
    """An email about a game that never began, or about no move of it: the creator told the game
    waits for the others, a game declined or called off before its first move, a ladder's rank
    change (the game's own emails showed its board). Such an email is short: no table, no hand."""
    if message.type == "game.invited":
        return message.data.get("created_by") == player.id and view.get("status") == "waiting"
    if message.type == "ladder.rank_changed":
        return True
    result = view.get("result") or {}
    return message.type == "game.finished" and result.get("reason") in ("declined", "aborted")


def starts(message: Message) -> bool:
    """A game that starts on the seat's move: its your-move email is its invitation too (one email,
    the thread's first; messages.by_email sends no invitation email beside it)."""
    return message.type == "game.your_turn" and message.data.get("version") == 0


def reminder_line(kind: str | None) -> str:
    """Which reminder of the time policy this is (chalicelib.clocks.timecontrol.REMINDERS), in one sentence."""
    rule = next((r for r in timecontrol.REMINDERS if r.kind == kind), None)
    if rule is None:
        return _("Reminder: it is still your move.")
    if rule.days_without_move is not None:
        return ngettext("Reminder: {count} day without a move; it is still your move.",
                        "Reminder: {count} days without a move; it is still your move.",
                        rule.days_without_move).format(count=rule.days_without_move)
    if rule.percent_used is not None:
        return _("Reminder: it is still your move, and {percent} of your time for it is used.").format(
            percent=i18n.percent(rule.percent_used / 100))
    return ngettext("Reminder: it is still your move, and your time runs out within {count} hour.",
                    "Reminder: it is still your move, and your time runs out within {count} hours.",
                    rule.hours_left).format(count=rule.hours_left)


def compose(message: Message, player: Player, view: dict, links: Links, confirmed: str | None = None) -> EmailMessage:
    """``confirmed``: what the player's own reply did, held for this email (notify/confirmations.py)."""
    first = first_line(message, player, view)
    context = show.letter(view, links, first=i18n.sentences(confirmed, first) if confirmed else first,
                          moves=message.type in TURN_MESSAGES or (bool(confirmed) and view.get("to_move") == view["you"]))
    if message.type == "game.reminder":
        context["clock"] = ""  # its first line tells the time left already: not twice
    unsubscribe = links.unsubscribe_url(player.id)
    context["unsubscribe_url"] = unsubscribe
    # The game's start (asked, or told it began) and its end say the deal's commitment (issue 23).
    context["deal"] = show.deal(view) if message.type in ("game.invited", "game.finished") or starts(message) else None
    if never_began(message, player, view):  # issue 36 item 5: no table, no hand (nothing was played)
        context["short"] = {"summary": show.summary(view) if message.type == "game.invited" else []}
        if message.type != "game.invited":
            context["deal"] = None
    replies = context["your_move"]
    context["reply_works"] = replies
    asked = message.type == "game.invited" and show.waits_for(view)
    if asked:  # asked to play: what the game is, and the answers (links, or a reply); no table, no hand
        context["asked"] = {
            "summary": show.summary(view),
            "accept_url": links.answer_url(view["game_id"], view["you"], player.id, "accept"),
            "decline_url": links.answer_url(view["game_id"], view["you"], player.id, "decline"),
        }
    email = EmailMessage()
    email["From"] = mail_from(view["game"])
    email["To"] = player.email
    email["Subject"] = context["subject"]
    email["Date"] = formatdate(usegmt=True)
    root = thread_root(view["game_id"], player.id, links.mail_domain)
    if message.type == "game.invited" or starts(message):
        email["Message-ID"] = root  # the thread's first email
    else:
        email["Message-ID"] = message_id(message.id, links.mail_domain)
        threaded(email, root)
    email["X-Battleline-Message"] = message.id
    unsubscribable(email, unsubscribe)
    if replies or asked:  # a reply to this address plays (or answers) as this seat, at this version
        email["Reply-To"] = links.reply_address(view["game_id"], view["you"], view["version"])
    automatic(email)
    email.set_content(render("notification.txt", **context))
    email.add_alternative(render("notification.html", **context), subtype="html")
    return email


def compose_invitation(data: dict, inviter: str, links: Links, view: dict | None = None) -> EmailMessage:
    """An invitation to a seat, for an address that is not a player yet: who invites, and who
    else plays (``view``: the invited seat's view of the game, for its players' names)."""
    name = PRESENTERS[data["game"]].title
    title = _(name)
    url = links.invitation_url(data["game_id"], data["seat"], data["invite_email"])
    players = [name for seat, name in show.people(view).items() if seat != data["seat"]] if view else [inviter]
    opponents = show.listed(players)
    email = EmailMessage()
    email["From"] = mail_from(data["game"])
    email["To"] = data["invite_email"]
    email["Subject"] = _("{inviter} invites you to a game of {game}").format(inviter=inviter, game=title)
    email["Date"] = formatdate(usegmt=True)
    email["Message-ID"] = make_msgid(domain=links.mail_domain)
    email["Reply-To"] = bare_address(links)  # a reply is answered with how to play (once a day)
    unsubscribe = links.unsubscribe_address_url(data["invite_email"])
    unsubscribable(email, unsubscribe)
    automatic(email)
    context = {"inviter": inviter, "title": title, "game_id": data["game_id"], "players": opponents, "url": url,
               "lead": _("{inviter} invites you to play {game} against {players} (game {game_id}).").format(
                   inviter=inviter, game=title, players=opponents, game_id=data["game_id"]),
               "deal": show.deal(view) if view else None}
    email.set_content(render("invitation.txt", **context))
    email.add_alternative(render("invitation.html", **context), subtype="html")
    return email


def compose_recovery(player: Player, url: str, minutes: int, domain: str) -> EmailMessage:
    """An account recovery link, to the player who asked (in their language): the link opens a
    page whose button gives a new API key. Not threaded with any game."""
    email = EmailMessage()
    email["From"] = mail_from()
    email["To"] = player.email
    subject = _("A new API key for {name}").format(name=player.name)
    email["Subject"] = subject
    email["Date"] = formatdate(usegmt=True)
    email["Message-ID"] = make_msgid(domain=domain)
    automatic(email)
    context = {"subject": subject, "url": url, "minutes": minutes,
               "lead": _("Someone, probably you, asked for a new API key for your player {name} ({player_id}).").format(
                   name=player.name, player_id=player.id)}
    email.set_content(render("recovery.txt", **context))
    email.add_alternative(render("recovery.html", **context), subtype="html")
    return email


# ---------------------------------------------------------------- a tournament's news (issue 36)


def points(value: float) -> str:
    """Tournament points as players write them: 2, 1.5."""
    return i18n.number(value, 0 if float(value).is_integer() else 1)


def _on_its_own(message: Message, player: Player, links: Links, template: str, context: dict) -> EmailMessage:
    """An email in a thread of its own (a digest, a tournament's news): ``template``'s text and HTML
    parts, with one-click unsubscribe (``context["unsubscribe_url"]``) and marked automatic."""
    email = EmailMessage()
    email["From"] = mail_from()
    email["To"] = player.email
    email["Subject"] = context["subject"]
    email["Date"] = formatdate(usegmt=True)
    email["Message-ID"] = message_id(message.id, links.mail_domain)
    email["X-Battleline-Message"] = message.id
    unsubscribable(email, context["unsubscribe_url"])
    automatic(email)
    email.set_content(render(f"{template}.txt", **context))
    email.add_alternative(render(f"{template}.html", **context), subtype="html")
    return email


def compose_tournament(message: Message, player: Player, views: list[dict], links: Links) -> EmailMessage:
    """A tournament's news to one player, in their language, in a thread of the tournament's own: a
    round paired (each of their games: the opponent, who moves first, the time control, its board
    link; it replaces those games' start emails), a bye, or the event's end (their place, the final
    standings, the standings page and its CSV). ``views``: the player's view of each game paired."""
    data = message.data
    tournament, rounds, number = data["name"], data["rounds"], data["round"]
    standings_url = links.base_url + standings_page_path(data["tournament_id"])
    games, table = [], []
    if message.type == "tournament.round_paired":
        subject = _("{tournament}: round {round} of {rounds} is paired").format(
            tournament=tournament, round=number, rounds=rounds)
        first = _("Round {round} of {rounds}: you play {opponent}.").format(round=number, rounds=rounds,
                                                                          opponent=data["opponent"])
        intro = ngettext("Your game has begun: open its board to play when it is your move; an email follows "
                         "each move of your opponent.",
                         "Your {count} games have begun: open a board to play when it is your move; an email "
                         "follows each move of your opponent.", len(views)).format(count=len(views))
        for view in views:
            games.append({"line": _("{game} with {players} (game {game_id})").format(
                game=show.title(view), players=show.listed(show.others(view)), game_id=view["game_id"]),
                "summary": [*show.summary(view), show.whose_move(view)],
                "board_url": links.board_url(view["game_id"], view["you"])})
    elif message.type == "tournament.bye":
        subject = _("{tournament}: a bye in round {round}").format(tournament=tournament, round=number)
        first = _("Round {round} of {rounds}: you have a bye (no game this round).").format(round=number,
                                                                                           rounds=rounds)
        intro = _("It scores {points} points; you are paired again next round.").format(
            points=points(data["points"]))
    else:
        subject = _("{tournament} has ended").format(tournament=tournament)
        first = _("{tournament} has ended: you placed {rank} of {players}, with {points} points.").format(
            tournament=tournament, rank=data["rank"] or "-", players=data["players"], points=points(data["points"]))
        intro = _("The final standings:")
        table = [f"{row['rank'] or '-'}. {row['name']} ({points(row['points'])})" for row in data["standings"]]
    unsubscribe = links.unsubscribe_url(player.id)
    context = {"subject": subject, "first_line": first, "intro": intro, "games": games, "table": table,
               "standings_url": standings_url, "csv_url": links.base_url + standings_csv_path(data["tournament_id"])
               if message.type == "tournament.finished" else None,
               "unsubscribe_url": unsubscribe}
    return _on_its_own(message, player, links, "tournament", context)


# ---------------------------------------------------------------- the daily digest


def digest_games(message: Message, player: Player, links: Links) -> list[dict]:
    """Each game of a digest as the email shows it: its line, its deadline in the player's zone (and
    the time left when the digest was made) and its board link, from the message's public data."""
    zone = player.preferences.get("time_zone") or "UTC"
    made = timecontrol.parse_time(message.created_at)
    shown = []
    for game in message.data["games"]:
        name = PRESENTERS[game["game"]].title
        title = _(name)
        line = _("{game} with {players} (game {game_id})").format(game=title, players=show.listed(game["opponents"]),
                                                                 game_id=game["game_id"])
        if game.get("deadline"):
            left = (timecontrol.parse_time(game["deadline"]) - made).total_seconds()
            deadline = _("Your move is due by {moment} ({left} left).").format(
                moment=i18n.moment(game["deadline"], zone), left=i18n.duration(left))
        else:
            deadline = _("No time limit.")
        shown.append({"line": line, "deadline": deadline, "board_url": links.board_url(game["game_id"], game["seat"])})
    return shown


def compose_digest(message: Message, player: Player, links: Links) -> EmailMessage:
    """The player's daily digest: every game awaiting their move (never a card: only each game's
    opponents, deadline and board link), in their language, in a thread of its own."""
    games = digest_games(message, player, links)
    count = len(games)
    subject = ngettext("Daily digest: {count} game awaits your move", "Daily digest: {count} games await your move",
                       count).format(count=count)
    unsubscribe = links.unsubscribe_url(player.id)
    context = {"subject": subject, "first_line": subject, "games": games, "unsubscribe_url": unsubscribe,
               "intro": _("Your games awaiting a move, soonest deadline first; deadlines in your time zone "
                          "({zone}).").format(zone=player.preferences.get("time_zone") or "UTC"),
               "why": _("You get this daily digest instead of an email for each move. To have an email for each "
                        "move again, turn the digest off in your preferences (digest, enabled: false).")}
    return _on_its_own(message, player, links, "digest", context)
