"""The services: load → authorize → validate → apply → save → respond, one concern each.

They know games, players and the store, and nothing of HTTP or HTML: they take validated
request models, return plain dicts (or records), and refuse with :class:`~chalicelib.kernel.errors.ServiceError`
codes. Each is a class built with the services it needs (objects, never their bound methods);
they are built area by area in :mod:`chalicelib.wiring`, in order, by :func:`chalicelib.config.build_services`:

- ``players``: sign-up, authentication, the caller's own record and preferences;
- ``moves``: a game's life (:class:`~.life.GameLife`): load, a new game, the clock checked, a move
  applied, the clock passed (:mod:`.turnclock`), saved; a timeout, a forfeit, an abandoned game;
- ``games``: create, read and list games and events, post actions, a game's views;
- ``clocks``: the sweeper of timeouts (applied by the game's life) and reminders;
- ``vacations``: days off that stop a player's clocks;
- ``boards``: the board in a browser (hiding the boards of a duplicate round in play: :mod:`.duplicates`);
- ``bots``: a bot seat's turn;
- ``finished``: a finished game's consequences: its ladder, its rating, its tournament (the round
  scored and the next one paired);
- ``ratings``: Glicko-2 ratings and leaderboards;
- ``webhooks``: a player's webhook endpoints and their deliveries;
- ``tournaments``: tournaments, their rounds' games, withdrawals (the rules are the pure
  :mod:`chalicelib.tournaments`: director, pairings, standings, Glicko-2);
- ``ladders``: ladders (standing and organised), joining, challenges, the results that move
  rungs, and the sweep of unanswered challenges and idle players (positions: the pure
  :mod:`chalicelib.ladders.positions`);
- ``idempotency``: a write done once per Idempotency-Key;
- ``analysis`` and ``card_sets``: stateless functions their routes call directly (Battle Line's
  position analysis; Khan & General's card sets).

Play by email is served by :mod:`chalicelib.mailplay.service`. SES's bounce and complaint events
are handled by :mod:`chalicelib.services.mailevents` (built by ``config.mail_events`` for the
``mail_events`` function alone).
"""
