"""The Discord edge: everything that speaks discord.py.

The client (:class:`bot.edge.client.ChaupalBot`) and the features, a
package each (play, lobby, seats, delivery, archive, tournament, settings,
help, and ``/moderate`` above those it spans): a feature holds its slash
commands, its restart-proof DynamicItems and the object that answers both
(moves -> the service -> delivery).  Below every feature: the texts of a
game's table several of them show (:mod:`.tables`) and the shared modules
(ports, arguments, refusals, replies, selects, moderators).  The inner
parts (the service, the director, the scheduler, storage, engines) never
import this package: import-linter's contracts in ``pyproject.toml``
(``lint-imports``, ``make lint``) check it, and ``tests/test_layers.py``
shows each contract a breach it must report."""
