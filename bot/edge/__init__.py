"""The Discord edge: everything that speaks discord.py.

The client (:class:`bot.edge.client.ChaupalBot`) and the features, a
package each (play, lobby, seats, delivery, archive, tournament, settings,
help): a feature holds its slash commands, its restart-proof DynamicItems
and the object that answers both (moves -> the service -> delivery).  The
inner parts (the service, the director, the scheduler, storage, engines)
never import this package; ``tests/test_layers.py`` checks it."""
