"""The services: load → authorize → validate → apply → save → respond, one concern each.

They know games, players and the store, and nothing of HTTP or HTML: they take validated
request models, return plain dicts (or records), and refuse with :class:`~chalicelib.errors.ServiceError`
codes. Each is a class built with the public methods of the services it needs; they are built
and wired together in one place, :func:`chalicelib.config.build_services`:

- ``players``: sign-up, authentication, the caller's own record and preferences;
- ``moves``: how a game record moves on (a new game, one more version, a forfeit);
- ``games``: create, read and list games and events, post actions, a game's views;
- ``clocks``: the turn clock, time checks, timeouts and reminders (the sweeper);
- ``vacations``: days off that stop a player's clocks;
- ``boards``: the board in a browser, and hiding the boards of a duplicate round in play;
- ``bots``: a bot seat's turn;
- ``ratings``: a finished game's consequences, Glicko-2 ratings and leaderboards;
- ``webhooks``: a player's webhook endpoints and their deliveries;
- ``tournaments``: tournaments, their rounds' games, withdrawals (the rules are the pure
  :mod:`chalicelib.tournaments`: director, pairings, standings, Glicko-2);
- ``ladders``: ladders (standing and organised), joining, challenges, the results that move
  rungs, and the sweep of unanswered challenges and idle players (positions: the pure
  :mod:`chalicelib.ladder`);
- ``idempotency``: a write done once per Idempotency-Key;
- ``analysis`` and ``card_sets``: stateless functions their routes call directly (Battle Line's
  position analysis; Khan & General's card sets).

Play by email is served by :mod:`chalicelib.mailplay.service`. SES's bounce and complaint events
are handled by :mod:`chalicelib.services.mailevents` (built by ``config.mail_events`` for the
``mail_events`` function alone).
"""
