"""Bringing Discord up to date from storage: the outbox, boards, private
views and threads (:mod:`.delivery`), their texts (:mod:`.texts`, pure), and
what a due timer does (:mod:`.keeper`)."""
