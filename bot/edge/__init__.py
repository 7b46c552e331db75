"""The Discord edge: everything that speaks discord.py.

The client (:class:`bot.edge.client.ChaupalBot`), its cogs, the restart-proof
DynamicItems, the table (interactions -> service), delivery (boards and
DMs), the tournament desk and the keeper (due timers -> Discord).  The inner
parts (the service, the director, the scheduler, storage, engines) never
import this package; ``tests/test_layers.py`` checks it."""
