"""Looking back (issue 21): the history (:mod:`.history`), replays and
reviews (:mod:`.replays`), following a game (:mod:`.follows`), their texts
(:mod:`.texts`, pure), a game's log and export (:mod:`.log`), and the
ratings' commands (:mod:`.ratings`)."""
