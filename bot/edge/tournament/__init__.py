"""Tournaments' Discord side: the desk (:mod:`.desk`: requests, posts, the
Join and Leave buttons), its texts (:mod:`.texts`, pure) and ``/tournament``
(:mod:`.cog`); moderators' commands are in :mod:`bot.edge.moderate.cog`."""
