"""``/help``: one page and a Rules and Play button per game (:mod:`.cog`)."""
