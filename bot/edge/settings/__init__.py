"""``/chaupal settings`` and ``/chaupal me``, and the bodies of ``/moderate
settings`` (:mod:`.cog`)."""
