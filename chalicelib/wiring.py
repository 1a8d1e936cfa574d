"""The services wired per area: each area builds its own services from the adapters (store,
clock, links) and the areas it needs, handing them collaborator objects, never another service's
bound methods. :func:`chalicelib.config.build_services` calls them in this order, each area
needing only those before it:

1. :func:`game_life`: a game's life (:class:`~.services.life.GameLife`: load, clock, apply, save),
   the clocks' sweeper, idempotency, long-polls and the duplicate boards' rule;
2. :func:`players_area`: players and their keys, account recovery, rate limits, ratings, vacations,
   and the consent asked before a game seats someone (blocks, limits, invitations);
3. :func:`games_area`: making a game, games read and moves, bots, game records, notes, boards;
4. :func:`lobby_area`: consent answered, open seats, rematches;
5. :func:`competitions_area`: tournaments, ladders, and what a finished game leads to;
6. :func:`notifications_area`: the dispatcher, built whole on the outlets it was given (a seat's
   view, the handler of each of the server's own outbox messages), webhooks, digests;
7. :func:`mail_area`: play by email: following a link, and replies read as commands (given the
   players service and the caps on answers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .kernel.clock import Clock
from .games import GameEngine
from .presenting.links import Links
from .mailplay.answering import AnswerCaps
from .mailplay.inbound import InboundMail
from .mailplay.service import MailPlay
from .notify import messages
from .notify.dispatcher import Dispatcher, Outlets
from .http.ratelimit import Rate, RateLimits
from .services.blocks import Blocks
from .services.boards import Boards
from .services.bots import Bots
from .services.creation import GameCreation
from .services.clocks import Clocks
from .services.consent import Consent
from .services.digests import Digests
from .services.duplicates import DuplicateBoards
from .services.finished import FinishedGames
from .services.gamerecords import GameRecords
from .services.games import Games
from .services.idempotency import Idempotent
from .services.ladders import Ladders
from .services.life import GameLife
from .services.limits import GameLimit, InvitationLimit
from .services.lobby import Lobby
from .services.notes import Notes
from .services.players import Players
from .services.ratings import Ratings
from .services.recovery import Recovery
from .services.tournaments import Tournaments
from .services.vacations import Vacations
from .services.waiting import Waiter
from .services.webhooks import Webhooks
from .store.protocol import Store


@dataclass(frozen=True)
class GameLifeArea:
    life: GameLife
    clocks: Clocks
    idempotent: Idempotent
    waiter: Waiter
    duplicates: DuplicateBoards


def game_life(store: Store, clock: Clock, *, engines: dict[str, GameEngine], new_seed: Callable[[], int],
              waiter: Waiter) -> GameLifeArea:
    life = GameLife(store, clock, engines=engines, new_seed=new_seed)
    return GameLifeArea(life=life, clocks=Clocks(store, clock, life=life), idempotent=Idempotent(store, clock),
                        waiter=waiter, duplicates=DuplicateBoards(store, life))


@dataclass(frozen=True)
class PlayersArea:
    players: Players
    recovery: Recovery
    limits: RateLimits
    ratings: Ratings
    vacations: Vacations
    blocks: Blocks
    game_limit: GameLimit
    consent: Consent


def players_area(store: Store, clock: Clock, core: GameLifeArea, *, links: Links | None, rates: dict[str, Rate],
                 vacation_days: int, invitation_cap: int) -> PlayersArea:
    ratings = Ratings(store, clock, engines=core.life.engines)
    vacations = Vacations(store, clock, life=core.life, days=vacation_days)
    limits = RateLimits(clock, rates)
    blocks = Blocks(store, clock)
    game_limit = GameLimit(store)
    return PlayersArea(
        players=Players(store, clock, idempotent=core.idempotent, vacations=vacations, ratings=ratings),
        recovery=Recovery(store, clock, links=links, limits=limits), limits=limits, ratings=ratings,
        vacations=vacations, blocks=blocks, game_limit=game_limit,
        consent=Consent(blocks=blocks, limit=game_limit, invitations=InvitationLimit(clock, invitation_cap)))


@dataclass(frozen=True)
class GamesArea:
    creation: GameCreation
    games: Games
    bots: Bots
    records: GameRecords
    notes: Notes
    boards: Boards


def games_area(store: Store, clock: Clock, core: GameLifeArea, people: PlayersArea, *,
               links: Links | None) -> GamesArea:
    games = Games(store, life=core.life, idempotent=core.idempotent, duplicates=core.duplicates,
                  consent=people.consent, waiter=core.waiter, keys=people.players)
    creation = GameCreation(store, life=core.life, games=games, idempotent=core.idempotent, consent=people.consent,
                            sends_email=links is not None)
    notes = Notes(store, clock, life=core.life)
    return GamesArea(creation=creation, games=games, bots=Bots(life=core.life),
                     records=GameRecords(store, duplicates=core.duplicates, engines=core.life.engines), notes=notes,
                     boards=Boards(store, life=core.life, games=games, duplicates=core.duplicates, notes=notes,
                                   links=links))


def lobby_area(store: Store, core: GameLifeArea, people: PlayersArea, played: GamesArea) -> Lobby:
    return Lobby(store, life=core.life, games=played.games, idempotent=core.idempotent, consent=people.consent)


@dataclass(frozen=True)
class CompetitionsArea:
    tournaments: Tournaments
    ladders: Ladders
    finished: FinishedGames


def competitions_area(store: Store, clock: Clock, core: GameLifeArea, people: PlayersArea, played: GamesArea,
                      lobby: Lobby, *, base_url: str) -> CompetitionsArea:
    tournaments = Tournaments(store, clock, life=core.life, idempotent=core.idempotent, base_url=base_url)
    ladders = Ladders(store, clock, life=core.life, games=played.games, lobby=lobby, idempotent=core.idempotent)
    return CompetitionsArea(tournaments=tournaments, ladders=ladders,
                            finished=FinishedGames(life=core.life, ratings=people.ratings, tournaments=tournaments,
                                                   ladders=ladders))


@dataclass(frozen=True)
class NotificationsArea:
    dispatcher: Dispatcher
    webhooks: Webhooks
    digests: Digests


def notifications_area(store: Store, clock: Clock, core: GameLifeArea, played: GamesArea,
                       competitions: CompetitionsArea, *, outlets: Outlets) -> NotificationsArea:
    """The dispatcher, whole: emails show each seat its own view (with what happened since it last
    moved), and the server's own outbox messages go to their handlers by type."""
    def tell(message, first=None) -> None:
        """A tournament's round (its games made first) or end, told to each player (issue 36)."""
        if first is not None:
            first(message)
        for news in competitions.tournaments.news(message):
            dispatcher.dispatch(news)

    dispatcher = Dispatcher.through(store, clock, outlets, viewer=played.games.story, handlers={
        messages.GAME_FINISHED: competitions.finished.settle,  # its ladder, its rating, its tournament's pairing
        messages.BOT_TURN: played.bots.play_bot,
        messages.TOURNAMENT_GAMES: lambda message: tell(message, competitions.tournaments.make_games),
        messages.TOURNAMENT_FINISHED: tell,
        messages.TOURNAMENT_WITHDRAWAL: competitions.tournaments.finish_withdrawal,
    })
    return NotificationsArea(dispatcher=dispatcher, webhooks=Webhooks(store, clock, dispatcher=dispatcher,
                                                                                 idempotent=core.idempotent),
                             digests=Digests(store, clock, life=core.life))


@dataclass(frozen=True)
class MailArea:
    mailplay: MailPlay
    inbound: InboundMail | None  # None without links (no email at all)


def mail_area(store: Store, clock: Clock, core: GameLifeArea, people: PlayersArea, played: GamesArea, lobby: Lobby,
              *, outlets: Outlets) -> MailArea:
    links, mailer = outlets.links, outlets.mailer
    inbound = (InboundMail(played.games, mailer, links, lobby, players=people.players, caps=AnswerCaps(store, clock),
                            store=store, clock=clock)
               if links is not None else None)
    return MailArea(mailplay=MailPlay(store, clock, links=links, life=core.life, games=played.games, lobby=lobby),
                    inbound=inbound)
