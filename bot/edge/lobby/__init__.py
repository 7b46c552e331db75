"""Opening a game: lobbies, their buttons and a rematch (:mod:`.lobby`), the
lobby's text and what options mean (:mod:`.texts`), options as typed
(:mod:`.options`)."""
