"""Chaupal's storage layer: one SQLite file through aiosqlite, or a
PostgreSQL database through asyncpg, with the same SQL.

- :mod:`storage.errors`: :class:`StorageError` and the database's errors;
- :mod:`storage.backend`: the :class:`Connection` the stores write to
  (one SQL text for both engines), targets, what both engines raise;
- :mod:`storage.schema`: the numbered migrations and their dialect blocks;
- :mod:`storage.database`: :class:`Database`, the abstract base the stores
  use, and its two drivers, :mod:`storage.sqlite` and :mod:`storage.postgres`;
- :mod:`storage.opening`: :func:`open_database`, which picks the driver a
  target names;
- :mod:`storage.backups` and :mod:`storage.copying`: ``backup`` and
  ``migrate-db``;
- the stores: :mod:`storage.games` (``GameStore``, the small async API the
  service uses), :mod:`storage.ratings`, :mod:`storage.tournaments`,
  :mod:`storage.followers`, :mod:`storage.timekeeping`, :mod:`storage.settings`.

Import each name from its module: this package's ``__init__`` imports
nothing, so importing one module never loads the others.
"""
