"""HTTP routes: each translates one API operation into one service call (and, for the pages and
the board, its presentation). Nothing else. What only some routes need (pages, the board, card
sets, analysis) is imported by them, so a cold start loads the route table alone."""

import base64
import gc
import json
import os

# A cold start's import makes only what the process keeps (modules, classes, the route table): the cyclic
# garbage collector, which would walk them again and again as they are made, is paused until the end of this
# module, which then freezes them (gc.freeze: no later collection walks them). Issue 39 item 5, docs/architecture.md.
gc.disable()
# No pydantic plugin is used: pydantic would otherwise read the entry points of every installed distribution
# when it builds its first validator, on the first request that validates a body or a query (a tenth of a cold
# import). Setting it to anything else (an empty value: every plugin) lets plugins load.
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from chalice import Chalice, Rate  # noqa: E402 - after the collector's pause

from chalicelib import config  # noqa: E402
from chalicelib.kernel import observability  # noqa: E402
from chalicelib.http import models as m  # noqa: E402
from chalicelib.http.web import NDJSON, Api, Call, Models, ndjson  # noqa: E402

r = Models("chalicelib.http.responses")  # what each route answers: documented in openapi.yaml, never loaded here
positions = Models("chalicelib.games.battleline.positions")  # analyzeBattleLine's bodies, loaded when first used
app = Chalice(app_name="battleline-server")
app.register_middleware(observability.middleware, "all")
api = Api(app, config.services, config.allowed_origins())


@api.operation("POST", "/v1/players", "createPlayer", summary="Sign up: returns the API key, once",
               body=m.CreatePlayerRequest, response=r.PlayerCreated, status=201, auth=False,
               idempotent=True, rate="signup", errors=("not_a_bot",), tag="players")
def create_player(call: Call):
    return call.services.players.create_player(call.body, call.idempotency)


@api.operation("POST", "/v1/players/recover", "recoverAccount",
               summary="Lost your API key: a new one by a link mailed to your address (always 202, the same body) "
                       "or by your recovery code; every old key stops working",
               body=m.RecoverAccountRequest, response=r.RecoveryAnswer, status=202, auth=False, rate="recover",
               errors=("recovery_refused",), speaks=True, tag="players")
def recover_account(call: Call):
    return call.services.recovery.recover(call.body)


@api.operation("GET", "/v1/players/me", "getMe", summary="The caller's player, vacation days and ratings",
               response=r.Me, tag="players")
def get_me(call: Call):
    return call.services.players.get_me(call.player)


@api.operation("POST", "/v1/players/me/api-key", "rotateApiKey",
               summary="A new API key, shown once; your other keys work until it is first used, 24 hours at most",
               response=r.RotatedApiKey, status=201, tag="players")
def rotate_api_key(call: Call):
    return call.services.players.rotate_api_key(call.player)


@api.operation("DELETE", "/v1/players/me/api-key", "revokeApiKey",
               summary="Revoke your API keys now (this one too): no request with them works any more",
               response=None, status=204, tag="players")
def revoke_api_key(call: Call):
    return call.services.players.revoke_api_key(call.player)


@api.operation("GET", "/v1/players", "findPlayers",
               summary="Players by name (names are not unique): the whole name, any case and Unicode form",
               query=m.FindPlayersQuery, response=r.PlayerList, errors=("invalid_cursor",), tag="players")
def find_players(call: Call):
    return call.services.players.find_players(call.query)


@api.operation("GET", "/v1/players/{player_id}", "getPlayer",
               summary="A player's public profile: name, ratings (never an email or a key)",
               response=r.PublicPlayer, errors=("unknown_player",), tag="players")
def get_player(call: Call):
    return call.services.players.get_player(call.params["player_id"])


@api.operation("GET", "/v1/players/me/blocks", "listBlocks",
               summary="The players you blocked (tournaments and ladders still pair you with them)",
               response=r.BlockList, tag="players")
def list_blocks(call: Call):
    return call.services.blocks.list_blocks(call.player)


@api.operation("PUT", "/v1/players/me/blocks/{player_id}", "blockPlayer",
               summary="Block a player: they cannot challenge you, take a seat in your games, nor message you "
                       "(idempotent; tournaments and ladders still pair you)",
               response=r.BlockView, errors=("unknown_player", "cannot_block_self"), tag="players")
def block_player(call: Call):
    return call.services.blocks.block(call.player, call.params["player_id"])


@api.operation("DELETE", "/v1/players/me/blocks/{player_id}", "unblockPlayer",
               summary="Lift a block (idempotent: no block, the same answer)", response=None, status=204,
               errors=("unknown_player",), tag="players")
def unblock_player(call: Call):
    return call.services.blocks.unblock(call.player, call.params["player_id"])


@api.operation("POST", "/v1/players/me/vacation", "takeVacation",
               summary="Go on vacation now for whole days: all your clocks stop", body=m.TakeVacationRequest,
               response=r.VacationView, errors=("already_on_vacation", "vacation_days_exhausted"), tag="players")
def take_vacation(call: Call):
    return call.services.vacations.take_vacation(call.player, call.body.days)


@api.operation("DELETE", "/v1/players/me/vacation", "endVacation",
               summary="Come back early: the whole days not begun are given back", response=r.VacationView,
               errors=("not_on_vacation",), tag="players")
def end_vacation(call: Call):
    return call.services.vacations.end_vacation(call.player)


@api.operation("POST", "/v1/tournaments", "createTournament", summary="Create a tournament (you organise it)",
               body=m.CreateTournamentRequest, response=r.TournamentView, status=201, idempotent=True,
               errors=("unknown_game_type", "invalid_options", "invalid_deck", "unknown_card_set",
                       "invalid_tournament"), tag="tournaments")
def create_tournament(call: Call):
    return call.services.tournaments.create(call.player, call.body, call.idempotency)


@api.operation("GET", "/v1/tournaments", "listTournaments",
               summary="Tournaments, newest first: open for entry, running or finished", query=m.ListTournamentsQuery,
               response=r.TournamentList, auth=False, errors=("invalid_cursor",), tag="tournaments")
def list_tournaments(call: Call):
    return call.services.tournaments.list_tournaments(call.query)


@api.operation("GET", "/v1/tournaments/{tournament_id}", "getTournament",
               summary="A tournament: players, rounds, pairings and their games; `?format=trf` (or `Accept: "
                       "text/plain`) answers it as FIDE's Tournament Report File (TRF-16)", query=m.TournamentQuery,
               response=r.TournamentView, files=("text/plain",), auth=False, errors=("tournament_not_found",),
               tag="tournaments")
def get_tournament(call: Call):
    if call.query.format == "trf" or call.media == "text/plain":
        from chalicelib.pages.page import Download

        text, tid = call.services.tournaments.trf(call.params["tournament_id"])
        return Download(text, "text/plain", f"tournament-{tid}.trf")
    return call.services.tournaments.get(call.params["tournament_id"])


@api.operation("POST", "/v1/tournaments/{tournament_id}/join", "joinTournament",
               summary="Enter a tournament before it starts", response=r.TournamentView,
               errors=("tournament_not_found", "tournament_started", "tournament_full", "already_entered"),
               tag="tournaments")
def join_tournament(call: Call):
    return call.services.tournaments.join(call.player, call.params["tournament_id"])


@api.operation("POST", "/v1/tournaments/{tournament_id}/withdraw", "withdrawFromTournament",
               summary="Leave a tournament; once it runs, your remaining games are forfeited",
               response=r.TournamentView, errors=("tournament_not_found", "not_entered", "tournament_finished"),
               tag="tournaments")
def withdraw_from_tournament(call: Call):
    return call.services.tournaments.withdraw(call.player, call.params["tournament_id"])


@api.operation("POST", "/v1/tournaments/{tournament_id}/start", "startTournament",
               summary="Seed the players by rating and pair round one (the organiser only)",
               response=r.TournamentView,
               errors=("tournament_not_found", "not_organiser", "tournament_started", "too_few_players"),
               tag="tournaments")
def start_tournament(call: Call):
    return call.services.tournaments.start(call.player, call.params["tournament_id"])


@api.operation("GET", "/v1/tournaments/{tournament_id}/standings", "getStandings",
               summary="Standings with every tie-break, and the crosstable; `?format=csv` (or `Accept: text/csv`) "
                       "answers them as a CSV file", query=m.StandingsQuery, response=r.Standings,
               files=("text/csv",), auth=False, errors=("tournament_not_found",), tag="tournaments")
def get_standings(call: Call):
    standings = call.services.tournaments.standings(call.params["tournament_id"])
    if call.query.format == "csv" or call.media == "text/csv":
        from chalicelib.pages import standings as standings_pages

        return standings_pages.csv_file(standings)
    return standings


@api.operation("GET", "/v1/tournaments/{tournament_id}/standings/page", "getStandingsPage",
               summary="The standings and crosstable as a page for a browser (getStandings' `html_url`)",
               response=None, auth=False, html=True, errors=("tournament_not_found",), tag="tournaments")
def get_standings_page(call: Call):
    from chalicelib.pages import standings as standings_pages

    return standings_pages.standings_page(call.services.tournaments.standings(call.params["tournament_id"]))


@api.operation("GET", "/v1/leaderboards/{game}", "getLeaderboard",
               summary="The best established Glicko-2 ratings of a game type (of a Khan & General card set with "
                       "`card_set`: each set is rated apart)", query=m.LeaderboardQuery,
               response=r.Leaderboard, auth=False, errors=("unknown_game_type", "card_set_not_found"), tag="ratings")
def get_leaderboard(call: Call):
    return call.services.ratings.leaderboard(call.params["game"], call.query.limit, call.query.card_set)


@api.operation("POST", "/v1/games", "createGame", summary="Create a game; returns the creator's view",
               body=m.CreateGameRequest, response=r.GameView, status=201, idempotent=True,
               errors=("unknown_game_type", "invalid_options", "invalid_deck", "unknown_card_set", "invalid_seats",
                       "unsupported_seat", "player_not_found", "rated_conflict", "blocked", "challenges_refused",
                       "bot_refuses", "too_many_games", "too_many_invitations"))
def create_game(call: Call):
    return call.services.creation.create_game(call.player, call.body, call.idempotency)


@api.operation("GET", "/v1/games", "listGames",
               summary="The caller's games, most recently moved first; to_move=me: awaiting your move, "
                       "soonest deadline first",
               query=m.ListGamesQuery, response=r.GameList, errors=("invalid_cursor", "rate_limited"))
def list_games(call: Call):
    return call.services.games.list_games(call.player, call.query)


@api.operation("GET", "/v1/games/{game_id}", "getGame", summary="The caller's view of a game",
               response=r.GameViewWithMessages, errors=("game_not_found", "board_in_play"), etag=True)
def get_game(call: Call):
    return call.services.games.get_game(call.player, call.params["game_id"])


@api.operation("POST", "/v1/games/{game_id}/accept", "acceptGame",
               summary="Say yes to your seat in a game someone else made; it starts once every seat is settled",
               response=r.GameView, errors=("game_not_found", "not_seated", "nothing_to_answer", "version_conflict",
                                            "too_many_games"),
               tag="lobby")
def accept_game(call: Call):
    return call.services.lobby.accept(call.player, call.params["game_id"])


@api.operation("POST", "/v1/games/{game_id}/decline", "declineGame",
               summary="Say no to your seat: the game ends, declined, unrated", response=r.GameView,
               errors=("game_not_found", "not_seated", "nothing_to_answer", "version_conflict"), tag="lobby")
def decline_game(call: Call):
    return call.services.lobby.decline(call.player, call.params["game_id"])


@api.operation("POST", "/v1/games/{game_id}/abort", "abortGame",
               summary="Call a game off before its first move (its creator, seated or not, or a seated player): "
                       "it ends, aborted, unrated", response=r.GameView,
               errors=("game_not_found", "not_seated", "game_finished", "game_started", "tournament_game",
                       "version_conflict"),
               tag="lobby")
def abort_game(call: Call):
    return call.services.lobby.abort(call.player, call.params["game_id"])


@api.operation("GET", "/v1/open-games", "listOpenGames",
               summary="Open challenges: games with a seat for anyone, newest first", query=m.OpenGamesQuery,
               response=r.OpenGames, tag="lobby")
def list_open_games(call: Call):
    return call.services.lobby.open_games(call.player, call.query.game, call.query.limit)


@api.operation("POST", "/v1/games/{game_id}/join", "joinGame",
               summary="Take a game's open seat (first come, first served)", response=r.GameView,
               errors=("game_not_found", "seat_taken", "already_seated", "rating_out_of_range", "blocked",
                       "too_many_games"), tag="lobby")
def join_game(call: Call):
    return call.services.lobby.join(call.player, call.params["game_id"])


@api.operation("POST", "/v1/games/{game_id}/rematch", "rematchGame",
               summary="A new game like this finished one, the seats turned round; the others are asked as "
                       "createGame asks them (one rematch a game; none of a declined game)",
               response=r.GameView, status=201, idempotent=True,
               errors=("game_not_found", "not_seated", "game_not_finished", "tournament_game", "game_never_began",
                       "already_rematched", "player_not_found", "challenges_refused", "bot_refuses", "blocked",
                       "too_many_games"),
               tag="lobby")
def rematch_game(call: Call):
    return call.services.lobby.rematch(call.player, call.params["game_id"], call.idempotency)


@api.operation("GET", "/v1/games/{game_id}/notes", "getNotes",
               summary="Your private notes on a game (your seat's only; kept after the game)",
               response=r.NotesView, errors=("game_not_found", "not_seated"))
def get_notes(call: Call):
    return call.services.notes.get_notes(call.player, call.params["game_id"])


@api.operation("GET", "/v1/games/{game_id}/record", "getGameRecord",
               summary="The game's record (format game-record/1: docs/records.md): every move with its steps, "
                       "events, time and clock time, as you may see them; everything once the game is over",
               response=r.GameRecordDoc, errors=("game_not_found", "board_in_play"))
def get_game_record(call: Call):
    return call.services.records.get_record(call.player, call.params["game_id"])


@api.operation("GET", "/v1/players/me/records", "listGameRecords",
               summary="Your finished games as records, the latest finished first; with `Accept: "
                       "application/x-ndjson`, one record a line (the next page's cursor in `Next-Cursor`)",
               query=m.ListRecordsQuery, response=r.GameRecordList, files=(NDJSON,),
               errors=("invalid_cursor",))
def list_game_records(call: Call):
    found = call.services.records.list_records(call.player, call.query)
    return ndjson(found["records"], found["next_cursor"]) if NDJSON in call.accept else found


@api.operation("PUT", "/v1/games/{game_id}/notes", "putNotes",
               summary="Save your private notes on a game, over what you saved before (not a move: the game's "
                       "version stays)",
               body=m.NotesRequest, response=r.NotesView, errors=("game_not_found", "not_seated", "notes_too_long"))
def put_notes(call: Call):
    return call.services.notes.put_notes(call.player, call.params["game_id"], call.body.text)


@api.operation("GET", "/v1/games/{game_id}/board-link", "getBoardLink",
               summary="A link to the game's board in a browser: it plays as your seat (or watches a public game)",
               response=r.BoardLink, errors=("game_not_found", "not_seated", "board_in_play"))
def get_board_link(call: Call):
    return call.services.boards.board_link(call.player, call.params["game_id"])


@api.operation("GET", "/v1/games/{game_id}/board", "getBoard",
               summary="The board page: the table as SVG, your hand and steps to click; follows the game as it moves",
               query=m.BoardQuery, response=None, auth=False, html=True, tag="board",
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play"))
def get_board(call: Call):
    from chalicelib.pages import board as board_page

    return board_page.board_page(call.services.boards.board(call.params["game_id"], call.query.seat),
                                 call.query.seat, call.query.lang)


@api.operation("GET", "/v1/games/{game_id}/board/view", "getBoardView",
               summary="What the board page shows now, and the move log's lines after `after` (it asks again "
                       "every few seconds)", query=m.BoardViewQuery,
               response=r.BoardView, auth=False, tag="board", etag=True,
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play"))
def get_board_view(call: Call):
    from chalicelib.pages import board as board_page

    return board_page.board_view(call.services.boards.board(call.params["game_id"], call.query.seat, call.query.after),
                                 call.query.lang)


@api.operation("GET", "/v1/games/{game_id}/board/replay", "getBoardReplay",
               summary="The board's replay: the game as version `v` left it, as the seat saw it then (a finished "
                       "game: every hand), with the move list and first, previous, next and last links",
               query=m.BoardReplayQuery, response=None, auth=False, html=True, tag="board",
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play"))
def get_board_replay(call: Call):
    from chalicelib.pages import board_replay

    return board_replay.replay_page(call.services.boards.replay(call.params["game_id"], call.query.seat, call.query.v),
                                    call.query.seat, call.query.lang)


@api.operation("POST", "/v1/games/{game_id}/board/steps", "playOnBoard",
               summary="A step (or a whole turn of steps, all or nothing) chosen on a seat's board, played as "
                       "that seat at the version shown",
               query=m.BoardViewQuery, body=m.BoardStep, response=r.BoardView, auth=False, tag="board",
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play",
                       "not_seated", "not_your_turn", "version_conflict", "game_finished", "game_not_started", "time_expired",
                       "illegal_action", "invalid_card", "invalid_step"))
def play_on_board(call: Call):
    from chalicelib.pages import board as board_page

    return board_page.board_view(call.services.boards.board_play(call.params["game_id"], call.query.seat, call.body,
                                                                 call.query.after), call.query.lang)


@api.operation("GET", "/v1/games/{game_id}/board/notes", "getBoardNotes",
               summary="The private notes of the seat a board link plays as (getNotes, for the board page)",
               query=m.BoardQuery, response=r.NotesView, auth=False, tag="board",
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play",
                       "not_seated"))
def get_board_notes(call: Call):
    return call.services.boards.board_notes(call.params["game_id"], call.query.seat)


@api.operation("PUT", "/v1/games/{game_id}/board/notes", "putBoardNotes",
               summary="Save the private notes of the seat a board link plays as (putNotes, for the board page)",
               query=m.BoardQuery, body=m.NotesRequest, response=r.NotesView, auth=False, tag="board",
               errors=("game_not_found", "game_not_public", "invalid_link", "link_expired", "board_in_play",
                       "not_seated", "notes_too_long"))
def put_board_notes(call: Call):
    return call.services.boards.save_board_notes(call.params["game_id"], call.query.seat, call.body.text)


@api.operation("POST", "/v1/games/{game_id}/actions", "postAction",
               summary="Apply steps at an expected version, all or nothing",
               body=m.ActionRequest, response=r.ActionResult, idempotent=True,
               errors=("game_not_found", "not_seated", "not_your_turn", "version_conflict",
                       "game_finished", "game_not_started", "time_expired", "illegal_action", "invalid_card",
                       "invalid_step"))
def post_action(call: Call):
    return call.services.games.post_action(call.player, call.params["game_id"], call.body, call.idempotency)


@api.operation("GET", "/v1/games/{game_id}/events", "listEvents",
               summary="The game's events the caller may see, in order",
               query=m.ListEventsQuery, response=r.EventList,
               errors=("game_not_found", "board_in_play", "invalid_cursor", "rate_limited"))
def list_events(call: Call):
    return call.services.games.list_events(call.player, call.params["game_id"], call.query.after,
                                          limit=call.query.limit, cursor=call.query.cursor, wait=call.query.wait)


@api.operation("POST", "/v1/battleline/analyze", "analyzeBattleLine",
               summary="Which flags a seat can claim in a position, with a counterexample for each it cannot",
               body=positions.AnalyzeRequest, response=positions.Analysis, auth=False, tag="battleline",
               errors=("invalid_position", "invalid_card"), speaks=True)
def analyze_battleline(call: Call):
    from chalicelib.services.analysis import analyze_battleline

    return analyze_battleline(call.body)


@api.operation("GET", "/v1/khan/card-sets", "listKhanCardSets",
               summary="The Khan & General card sets this server has (and any files it refused, with why)",
               response=r.CardSetList, auth=False, tag="khan")
def list_khan_card_sets(call: Call):
    from chalicelib.services import card_sets

    return card_sets.khan_card_sets()


@api.operation("GET", "/v1/khan/card-sets/{card_set_id}", "getKhanCardSet",
               summary="A card set's units, commands and recommended decks (the latest version unless asked)",
               query=m.CardSetQuery, response=r.CardSetDocument, auth=False, errors=("card_set_not_found",),
               tag="khan")
def get_khan_card_set(call: Call):
    from chalicelib.services import card_sets

    return card_sets.khan_card_set(call.params["card_set_id"], call.query.version)


@api.operation("POST", "/v1/khan/card-sets/check", "checkKhanCardSet",
               summary="Check a designer's card-set file: every fault, naming its entry (nothing is stored)",
               body=m.CardSetFile, response=r.CardSetCheck, auth=False, tag="khan")
def check_khan_card_set(call: Call):
    from chalicelib.services import card_sets

    return card_sets.check_khan_card_set(call.body.model_dump())


# ---------------------------------------------------------------- webhooks

@api.operation("POST", "/v1/webhooks", "createWebhook", summary="Register a webhook; returns its secret (only here, and again to a retry with the "
                       "same Idempotency-Key)",
               body=m.CreateWebhookRequest, response=r.WebhookCreated, status=201, tag="webhooks",
               idempotent=True, errors=("unsafe_webhook_url", "webhook_not_found"))
def create_webhook(call: Call):
    return call.services.webhooks.register(call.player, call.body, call.idempotency)


@api.operation("GET", "/v1/webhooks", "listWebhooks", summary="The caller's webhooks", response=r.WebhookList,
               tag="webhooks")
def list_webhooks(call: Call):
    return call.services.webhooks.list_webhooks(call.player)


@api.operation("DELETE", "/v1/webhooks/{webhook_id}", "deleteWebhook", summary="Remove a webhook",
               response=None, status=204, tag="webhooks", errors=("webhook_not_found",))
def delete_webhook(call: Call):
    return call.services.webhooks.delete_webhook(call.player, call.params["webhook_id"])


@api.operation("POST", "/v1/webhooks/{webhook_id}/rotate", "rotateWebhookSecret",
               summary="A new secret; the old one keeps signing for 24 hours", response=r.RotatedSecret,
               tag="webhooks", errors=("webhook_not_found",))
def rotate_webhook_secret(call: Call):
    return call.services.webhooks.rotate_webhook_secret(call.player, call.params["webhook_id"])


@api.operation("GET", "/v1/webhooks/{webhook_id}/deliveries", "listWebhookDeliveries",
               summary="A webhook's deliveries, newest first, with every attempt", query=m.PageQuery,
               response=r.DeliveryList, tag="webhooks", errors=("webhook_not_found", "invalid_cursor"))
def list_webhook_deliveries(call: Call):
    return call.services.webhooks.list_webhook_deliveries(call.player, call.params["webhook_id"], call.query)


@api.operation("POST", "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", "redeliverWebhook",
               summary="Attempt a delivery again now, with the same id and body", response=r.DeliveryView,
               tag="webhooks", errors=("webhook_not_found", "delivery_not_found"))
def redeliver_webhook(call: Call):
    return call.services.webhooks.redeliver_webhook(call.player, call.params["webhook_id"], call.params["delivery_id"])


# ---------------------------------------------------------------- preferences and email links

@api.operation("GET", "/v1/players/me/preferences", "getPreferences",
               summary="Which events reach the caller by email and by webhook", response=r.PreferencesView,
               tag="players")
def get_preferences(call: Call):
    return call.services.players.get_preferences(call.player)


@api.operation("PUT", "/v1/players/me/preferences", "updatePreferences",
               summary="Choose which events reach the caller by email and by webhook", body=m.Preferences,
               response=r.PreferencesView, errors=("not_a_bot",), tag="players")
def update_preferences(call: Call):
    return call.services.players.set_preferences(call.player, call.body)


@api.operation("GET", "/v1/links/{token}", "showStepLink", summary="An email's step link: a page to confirm the step",
               response=None, auth=False, html=True, loads_game=True, tag="email")
def show_step_link(call: Call):
    from chalicelib.mailplay import pages

    return pages.step_link_page(call.services.mailplay, call.params["token"], f"/v1/links/{call.params['token']}")


@api.operation("POST", "/v1/links/{token}", "playStepLink",
               summary="Confirm an email's step link: plays the step (a Battle Line play with the claim and the draw "
                       "its page chose: the whole turn)",
               response=None, auth=False, html=True, loads_game=True, tag="email",
               errors=("payload_too_large", "invalid_request"))
def play_step_link(call: Call):
    from chalicelib.mailplay import pages

    return pages.play_step_link(call.services.mailplay, call.params["token"], call.form)


@api.operation("GET", "/v1/answers/{token}", "showAnswerLink",
               summary="An email's accept or decline link for a game you were asked to play: a page to confirm "
                       "(it changes nothing)", response=None, auth=False, html=True, loads_game=True, tag="email")
def show_answer_link(call: Call):
    from chalicelib.mailplay import pages

    return pages.answer_page(call.services.mailplay, call.params["token"], f"/v1/answers/{call.params['token']}")


@api.operation("POST", "/v1/answers/{token}", "answerGame",
               summary="Confirm an email's accept or decline link: accepts the game (it starts once every seat is "
                       "settled) or declines it (it ends, declined, unrated)",
               response=None, auth=False, html=True, loads_game=True, tag="email")
def answer_game(call: Call):
    from chalicelib.mailplay import pages

    return pages.answer_game(call.services.mailplay, call.params["token"])


@api.operation("GET", "/v1/invitations/{token}", "showInvitation", summary="An invitation by email: a page to join",
               response=None, auth=False, html=True, loads_game=True, tag="email")
def show_invitation(call: Call):
    from chalicelib.mailplay import pages

    return pages.invitation_page(call.services.mailplay, call.params["token"],
                                 f"/v1/invitations/{call.params['token']}")


@api.operation("POST", "/v1/invitations/{token}", "acceptInvitation",
               summary="Take the invited seat (a player is made for the address; its API key is shown once)",
               response=None, auth=False, html=True, loads_game=True, tag="email")
def accept_invitation(call: Call):
    from chalicelib.mailplay import pages

    return pages.accept_invitation(call.services.mailplay, call.params["token"])


@api.operation("GET", "/v1/unsubscribe/{token}", "showUnsubscribe", summary="A page to stop game emails",
               response=None, auth=False, html=True, tag="email")
def show_unsubscribe(call: Call):
    from chalicelib.mailplay import pages

    return pages.unsubscribe_page(call.services.mailplay, call.params["token"],
                                  f"/v1/unsubscribe/{call.params['token']}")


@api.operation("POST", "/v1/unsubscribe/{token}", "unsubscribe",
               summary="One-click unsubscribe (RFC 8058 List-Unsubscribe-Post)", response=None, auth=False,
               html=True, tag="email")
def unsubscribe(call: Call):
    from chalicelib.mailplay import pages

    return pages.unsubscribe(call.services.mailplay, call.params["token"])


@api.operation("GET", "/v1/recover/{token}", "showRecoveryLink",
               summary="An account recovery email's link: a page to confirm (it changes nothing)",
               response=None, auth=False, html=True, tag="email")
def show_recovery_link(call: Call):
    from chalicelib.mailplay import pages

    return pages.recovery_page(call.services.recovery, call.params["token"], f"/v1/recover/{call.params['token']}")


@api.operation("POST", "/v1/recover/{token}", "recoverWithLink",
               summary="Confirm an account recovery link (once, within 30 minutes): a new API key, shown on the page "
                       "once; every old key stops working", response=None, auth=False, html=True, tag="email")
def recover_with_link(call: Call):
    from chalicelib.mailplay import pages

    return pages.recover_with_link(call.services.recovery, call.params["token"])


# ---------------------------------------------------------------- long-polls, in AWS

# ---------------------------------------------------------------- ladders

@api.operation("POST", "/v1/ladders", "createLadder", summary="Create a ladder (you organise it)",
               body=m.CreateLadderRequest, response=r.LadderView, status=201, idempotent=True,
               errors=("unknown_game_type", "invalid_options", "invalid_deck", "unknown_card_set"), tag="ladders")
def create_ladder(call: Call):
    return call.services.ladders.create(call.player, call.body, call.idempotency)


@api.operation("GET", "/v1/ladders", "listLadders",
               summary="Ladders: the standing ladder of each game, then organisers' newest first",
               query=m.ListLaddersQuery, response=r.LadderList, auth=False, errors=("invalid_cursor",),
               tag="ladders")
def list_ladders(call: Call):
    return call.services.ladders.list_ladders(call.query)


@api.operation("GET", "/v1/ladders/{ladder_id}", "getLadder",
               summary="A ladder: each player's rank, rating and open challenges, and the open challenges",
               response=r.LadderView, auth=False, errors=("ladder_not_found",), tag="ladders")
def get_ladder(call: Call):
    return call.services.ladders.get(call.params["ladder_id"])


@api.operation("POST", "/v1/ladders/{ladder_id}/join", "joinLadder", summary="Enter a ladder, at the bottom",
               response=r.LadderView, errors=("ladder_not_found", "already_on_ladder", "ladder_busy"), tag="ladders")
def join_ladder(call: Call):
    return call.services.ladders.join(call.player, call.params["ladder_id"])


@api.operation("POST", "/v1/ladders/{ladder_id}/challenges", "challengeOnLadder",
               summary="Challenge a player at most N places above you: the game is made at once and waits for "
                       "their answer (acceptGame / declineGame) for the ladder's response_days",
               body=m.ChallengeRequest, response=r.LadderChallengeCreated, status=201, idempotent=True,
               errors=("ladder_not_found", "not_on_ladder", "player_not_on_ladder", "not_above", "too_far_above",
                       "too_many_challenges", "already_challenged", "ladder_busy"), tag="ladders")
def challenge_on_ladder(call: Call):
    return call.services.ladders.challenge(call.player, call.params["ladder_id"], call.body, call.idempotency)


@app.lambda_function(name="long_poll")
def long_poll(event, context):
    """listEvents and listGames (which may wait: ``wait=S``) from API Gateway, answered by these same
    routes in a function of their own with reserved concurrency (infra/stack.py): waiting requests
    can never take the concurrency that moves need, and a full pool answers 429 with Retry-After."""
    return app(event, context)


# ---------------------------------------------------------------- the outbox, in AWS

@app.lambda_function(name="outbox_consumer")
def outbox_consumer(event, context):
    """DynamoDB Streams consumer: dispatches new outbox items, reports failed records."""
    from chalicelib.notify import stream  # Powertools' batch utility: only this function loads it

    return stream.handle_batch(event, context, config.dispatcher())


@app.schedule(Rate(1, unit=Rate.MINUTES), name="webhook_retries")
def webhook_retries(event):
    """Attempts the webhook deliveries that are due (from the sparse due index)."""
    config.dispatcher().run_due()


@app.schedule(Rate(1, unit=Rate.MINUTES), name="clock_sweeper")
def clock_sweeper(event):
    """Sends due reminders and applies timeouts; ends ladder challenges not answered in time and
    takes idle players off their ladders; sends the daily digests that are due (from the sparse due
    index, never a scan)."""
    services = config.services()
    services.clocks.sweep_clocks()
    services.ladders.sweep()
    services.digests.sweep()


@app.lambda_function(name="inbound_mail")
def inbound_mail(event, context):
    """SES receipt rule -> SNS -> here: each raw MIME reply is read as commands and played (unless
    one of SES's verdicts, SPF, DKIM, spam or virus, failed)."""
    from chalicelib.mailplay.inbound import VERDICTS

    outcomes = []
    for record in event.get("Records", []):
        notice = json.loads(record["Sns"]["Message"])
        content = notice["content"].encode()
        if notice.get("receipt", {}).get("action", {}).get("encoding") == "BASE64":
            content = base64.b64decode(content)
        receipt = notice.get("receipt", {})
        verdicts = {name: receipt.get(f"{name}Verdict", {}).get("status", "") for name in VERDICTS}
        outcomes.append(config.inbound().handle(content, receipt.get("recipients"), verdicts,
                                                envelope_from=notice.get("mail", {}).get("source")).outcome)
    return {"outcomes": outcomes}


@app.lambda_function(name="mail_events")
def mail_events(event, context):
    """SES configuration set (bounces, complaints) -> SNS -> here: a permanent bounce or a complaint
    stops all mail to that address (chalicelib/services/mailevents.py)."""
    handler = config.mail_events()
    return {"outcomes": [handler.handle(json.loads(record["Sns"]["Message"])) for record in event.get("Records", [])]}


api.refuse_other_methods()  # last: every other method on these paths answers 405 problem+json

gc.freeze()  # what the import made stays for the process's life: later collections skip it
gc.enable()
