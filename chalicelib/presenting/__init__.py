"""What a seat's view says to a person, the same in emails, on pages, on the command line and in
refusals: the sentence of each step (each game's step table, ``games/<game>/steps.py``), the story
of a turn, the board as text (:mod:`.show`), and the signed links that carry a seat to its moves
(:mod:`.links`). Below notify, mail play and pages: it imports none of them, nor services nor the
store; each game is reached through its presenter (``games.presenters.PRESENTERS``)."""
