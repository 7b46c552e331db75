"""Opening a game: lobbies, their buttons and a rematch (:mod:`.lobby`) and
options as typed (:mod:`.options`).  The lobby's text and what options mean
are :mod:`bot.edge.tables.lobbies` (pure, shared with delivery and the
tournament desk)."""
