"""The board in a browser: a signed link plays as one seat (or watches a public game), and the
seat's view behind it. (The rule that hides the boards of a duplicate round in play is
:mod:`.duplicates`'.)

The service returns views; :mod:`chalicelib.pages.board` draws them (the board page, its
headline and labelled steps)."""

from __future__ import annotations

from ..gamerecord import format as gamerecords
from ..kernel import talk
from ..kernel.errors import ServiceError
from ..presenting.links import LinkError, Links
from ..http.models import ActionRequest
from ..store.records import EventRecord, GameRecord, Player
from ..kernel.i18n import _
from ..store.protocol import Store
from .duplicates import DuplicateBoards
from .games import Games
from .life import GameLife
from .notes import Notes

RECENT = 40  # the latest events a board tells its recap and drawn cards from


class Boards:
    def __init__(self, store: Store, *, life: GameLife, games: Games, duplicates: DuplicateBoards, notes: Notes,
                 links: Links | None) -> None:
        self.store = store  # events, every version (a replay's steps and move list), the caller's profile
        self.life = life  # a game by id (game_not_found if there is none)
        self.games = games  # a seat's view, the player in a seat, a move
        self.duplicates = duplicates  # a duplicate round's boards: hidden in play, all public once scored
        self.notes = notes  # a seat's private notes, read and saved as its player
        self.links = links

    def list_events(self, game_id: str, after: int) -> list[EventRecord]:
        """The game's events after ``after`` (the log's new lines), as stored."""
        return self.store.list_events(game_id, after)

    def board_link(self, player: Player, game_id: str) -> dict:
        """A link to the game's board: it plays as the caller's seat, or watches a public game. A
        seat's link carries the player and their ``key_generation`` (one read of the profile): it
        plays until their keys end (a revocation, a rotation, a recovery), not for 90 days whatever
        becomes of the key it was got with."""
        game, _engine = self.life.load(game_id)
        seat = game.seat_of(player.id)
        self.duplicates.hide_board_in_play(game, seat)
        if seat is None and not game.public:
            raise ServiceError("not_seated", _("you have no seat in game {game_id}, and it is not public").format(
                                               game_id=game_id))
        if seat is None:
            return {"url": self._links().board_url(game_id, None), "seat": None}
        profile = self.store.get_player(player.id)
        return {"url": self._links().board_url(game_id, seat, player_id=player.id,
                                               key_generation=profile.key_generation if profile else 0),
                "seat": seat}

    def _replay_seat(self, game: GameRecord, token: str | None) -> tuple[int | None, Player | None]:
        """As ``_board_seat``, but a finished tournament game's replay is anyone's (issue 36, item 8:
        the standings page's crosstable links its games; any key reads their views and records
        already, and a finished game hides nothing), a duplicate round's board once its round is over."""
        if token is None and not game.public and game.tournament_id and game.status == "finished":
            self.duplicates.hide_board_in_play(game, None)
            return None, None
        return self._board_seat(game, token)

    def _board_seat(self, game: GameRecord, token: str | None) -> tuple[int | None, Player | None]:
        seat, player, _generation = self._board_link(game, token)
        return seat, player

    def _board_link(self, game: GameRecord, token: str | None) -> tuple[int | None, Player | None, int | None]:
        """The seat a board link plays as and its player (None, None: a spectator). The player is
        read once here (every board request needs them: their language, their notes, their move);
        a link got with an API key is refused once the player's keys moved on (``key_generation``)
        or the seat is someone else's: no read more than the board makes anyway. The third: the
        link's ``key_generation`` (None: an email's link, or a spectator's)."""
        if token:
            try:
                link = self._links().read_board_link(token, game.id)
            except LinkError as error:
                raise ServiceError(error.code, str(error)) from None
            player = self.games.seat_player(game.id, link.seat)
            if link.key_generation is not None and (player is None or player.id != link.player_id
                                                    or player.key_generation != link.key_generation):
                raise ServiceError("invalid_link", _("this board link was got with an API key that has since been "
                                                     "revoked or replaced; ask for a new one"))
            return link.seat, player, link.key_generation
        self.duplicates.hide_board_in_play(game, None)
        if not game.public:
            raise ServiceError("game_not_public", _("this game is not public: open it with your seat's board link"))
        return None, None, None

    def board(self, game_id: str, token: str | None, after: int = 0) -> dict:
        """The view behind a board link (its ``you`` is the seat it plays as; None watches), with
        ``answers``, the seat's accept and decline links while the game waits for its answer, and
        ``reader_language``, the language the page speaks (its seat's player's; None: the request's),
        and what the page has not told yet: ``events``, those numbered above ``after`` as the seat sees
        them, and ``recent``, the latest ones (for the recap); when nothing happened since
        ``after``, no event is read and ``recent`` is None."""
        game, _engine = self.life.load(game_id)
        seat, player, generation = self._board_link(game, token)
        return {**self.games.view(game, seat), **self._since(game, seat, after, player),
                "answers": self._answers(game, seat, generation), "reader_language": self._language(player)}

    @staticmethod
    def _language(player: Player | None) -> str | None:
        """The ``language`` preference of the seat's player, which the seat's board speaks; None for a
        spectator (or a bot's seat): the board then follows the request's Accept-Language."""
        return player.language if player is not None else None

    def _answers(self, game: GameRecord, seat: int | None, generation: int | None) -> dict | None:
        """The seat's answer links (accept, decline) while the game waits for its player's answer;
        on a board link got with an API key, they end with it (its ``generation``)."""
        mine = next((s for s in game.seats if s.seat == seat), None) if seat is not None else None
        if game.status != "waiting" or mine is None or mine.player_id is None or not mine.invited:
            return None
        return {answer: self._links().answer_url(game.id, mine.seat, mine.player_id, answer, key_generation=generation)
                for answer in ("accept", "decline")}

    def _since(self, game: GameRecord, seat: int | None, after: int, player: Player | None) -> dict:
        if after >= game.event_count:
            return {"after": after, "events": [], "recent": None}
        start = min(after, max(0, game.event_count - RECENT))
        events = [e.seen_by(seat) for e in self.list_events(game.id, start)]
        if seat is not None and any(talk.is_message(e) for e in events):
            events = talk.visible(events, seat, player is not None and player.reads_messages)
        else:
            events = talk.visible(events, seat, False)
        return {"after": after, "events": [e for e in events if e["seq"] > after], "recent": events[-RECENT:]}

    def replay(self, game_id: str, token: str | None, version: int | None = None) -> dict:
        """A board's replay at ``version`` (None, or past the latest: the latest): the view of the
        game as that version left it, as the seat of ``token`` saw it then (None: a spectator), with
        ``steps``, every version's events as that seat sees them now (``replay_moves``).

        While the game runs a seat sees only its own view of each past version (its hand, never
        another's, nor the decks); once the game is finished everything is public: ``hands`` holds
        every seat's hand at ``version`` (``seat_views``: each seat's own view of it), and the
        events tell every seat's draws (on a duplicate round's board, once every board of its round
        is finished: ``all_public``). The duplicate round rule (``board_in_play``) and a
        private game's link hold as on the board.

        Reads: the game (one query), every version with its events (one query, paged by 1 MB, and
        the settings: the version shown is among them, and ``clock_used``, each version's time on
        its mover's clock, from the record's :func:`chalicelib.gamerecord.format.clock_used_by_version`),
        for a seat its player (one item), and for a finished duplicate board whether its round is
        scored."""
        game, engine = self.life.load(game_id)
        seat, player = self._replay_seat(game, token)
        latest = game.version
        shown = latest if version is None else min(max(version, 0), latest)
        history = self.store.game_history(game_id)
        past = next((made for made, _added in history if made.version == shown), game) if shown != latest else game
        finished = self.duplicates.all_public(game)
        view = {**self.games.view(past, seat, at=past.updated_at), "legal_steps": []}
        if finished:  # everything is public once the game ends: each seat's view (its hand) at that version
            view["seat_views"] = {s.seat: engine.view(past.state, s.seat) for s in game.seats}
            view["hands"] = {seat: seen.get("hand", []) for seat, seen in view["seat_views"].items()}
        events = [self._seen(e, seat, finished) for _made, added in history for e in added]
        mine = next((s for s in game.seats if s.seat == seat), None) if seat is not None else None
        return {**view, "replay": {"version": shown, "latest": latest, "finished": finished,
                                   "timed": game.clock is not None, "created_at": game.created_at,
                                   # each version's time on its mover's clock, as the record tells it
                                   "clock_used": gamerecords.clock_used_by_version(history),
                                   "zone": mine.time_zone if mine is not None else None,
                                   "events": [e for e in events if not talk.is_message(e)]},
                "reader_language": self._language(player)}

    @staticmethod
    def _seen(event: EventRecord, seat: int | None, finished: bool) -> dict:
        """An event as the replay tells it: as ``seat`` saw it; once the game is finished, with what
        every seat saw of it (its draws)."""
        seen = event.seen_by(seat)
        if finished:
            for key, private in event.private.items():
                if key.isdigit():
                    seen["data"].update(private)
        return seen

    def board_play(self, game_id: str, token: str | None, request, after: int = 0) -> dict:
        """Steps taken on a seat's board (one, or a whole turn), played as that seat's player at the
        version shown, all or nothing. Returns the board's view after them."""
        game, _engine = self.life.load(game_id)
        seat, player = self._board_seat(game, token)
        if player is None:
            raise ServiceError("not_seated", _("a spectator's board does not play"))
        steps = request.steps if request.steps is not None else [request.step]
        self.games.post_action(player, game_id, ActionRequest(expected_version=request.expected_version, steps=steps,
                                                        message=request.message), None)
        return self.board(game_id, token, after)

    def board_notes(self, game_id: str, token: str | None) -> dict:
        """The private notes of the seat a board link plays as (a spectator's board keeps none)."""
        return self.notes.get_notes(self._notes_player(game_id, token), game_id)

    def save_board_notes(self, game_id: str, token: str | None, text: str) -> dict:
        """Save the notes of the seat a board link plays as, as its player."""
        return self.notes.put_notes(self._notes_player(game_id, token), game_id, text)

    def _notes_player(self, game_id: str, token: str | None) -> Player:
        game, _engine = self.life.load(game_id)
        _seat, player = self._board_seat(game, token)
        if player is None:
            raise ServiceError("not_seated", _("a spectator's board keeps no notes"))
        return player

    def _links(self) -> Links:
        if self.links is None:
            raise ServiceError("internal_error", _("email links are not configured"))
        return self.links
