"""Looking back: the history, replays, reviews and following a game
(:mod:`.archive`, its texts :mod:`.texts`), a game's log and export
(:mod:`.log`), and the ratings' commands (:mod:`.ratings`)."""
