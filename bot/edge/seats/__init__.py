"""Who holds a seat: resigning, ending, removing and replacing a player,
pausing (:mod:`.seats`), taking a move back with the others' agreement
(:mod:`.takebacks`), and ``/moderate``, every moderator-only command
(:mod:`.moderate`)."""
