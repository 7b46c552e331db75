"""Who holds a seat: resigning, ending, removing and replacing a player,
pausing (:mod:`.seats`), taking a move back with the others' agreement
(:mod:`.takebacks`); ``/moderate``, every moderator-only command, is
:mod:`bot.edge.moderate`, above the features it spans."""
