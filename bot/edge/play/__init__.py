"""Playing a game: the ``/game`` command group (:mod:`.cog`), moves typed and
picked with the board's buttons and menus (:mod:`.moves`; the menus' words
and the board's choices are :mod:`bot.edge.tables.menus`, pure, shared with
delivery), and a player's games across channels (:mod:`.games`:
``/game next``, ``mine``, ``list``, ``away``)."""
