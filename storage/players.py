"""Each player's own settings, kept per user across every server
(``/chaupal me``, migration 0007); see :mod:`storage.settings`."""

from storage.settings import PlayerSettingsStore

__all__ = ["PlayerSettingsStore"]
