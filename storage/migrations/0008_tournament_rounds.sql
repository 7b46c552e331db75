-- 0008_tournament_rounds: a deadline for each round (issue 16).
--
-- round_time:     seconds a round may last (NULL: no deadline).
-- round_started:  when the current round was paired.
-- round_deadline: when the current round's games still running are settled
--                 by the tournament's timeout policy (NULL: none pending).
--                 Derived from round_started + round_time; cleared by the
--                 compare-and-clear claim of whoever settles the round, so
--                 a deadline fires once, also after a restart.
-- auto_drop:      1: a player who loses two games in a row on time is
--                 dropped (announced); 0: the moderator turned that off.
ALTER TABLE tournaments ADD COLUMN round_time REAL CHECK (round_time IS NULL OR round_time > 0);
ALTER TABLE tournaments ADD COLUMN round_started REAL;
ALTER TABLE tournaments ADD COLUMN round_deadline REAL;
ALTER TABLE tournaments ADD COLUMN auto_drop INTEGER NOT NULL DEFAULT 1 CHECK (auto_drop IN (0, 1));

-- The round scheduler reads only the earliest pending deadline.
CREATE INDEX tournaments_by_deadline ON tournaments (round_deadline)
    WHERE round_deadline IS NOT NULL;
