"""Play by email: signed links (a step, a board, an invitation, unsubscribe, reply addresses),
what following one does (:mod:`.service`), the pages it shows (:mod:`.pages`), and replies read
as commands (:mod:`.inbound`). The emails themselves are sent by :mod:`chalicelib.notify`."""
