-- 0009_claims: work claimed by one of several bot processes sharing the
-- database (issue 20: shards run by different processes).
--
-- Every process runs the schedulers and the delivery sweep; the database
-- decides who does each piece of work.  A process claims a row by writing
-- its id (claimed_by, "host:pid:random") and a lease (lease_until, seconds
-- since the epoch by the bot's clock), acts, then finishes the row (deletes
-- it, moves it on, or clears the claim) only while it still holds the claim.
-- A process that died loses its claims when their leases run out, and
-- another takes the work over.  NULL claimed_by: nobody holds the row.

-- A game's timers (reminders, clocks, automatic seats' moments to act).
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until REAL;
-- The scheduler sleeps until the earliest due timer or the earliest lease
-- to run out, whichever comes first.
CREATE INDEX timers_by_lease ON timers (lease_until) WHERE claimed_by IS NOT NULL;

-- A tournament round's deadline (round_deadline, migration 0008).
ALTER TABLE tournaments ADD COLUMN deadline_claimed_by TEXT;
ALTER TABLE tournaments ADD COLUMN deadline_lease REAL;

-- Delivering a game (its board, its DMs: bot/edge/delivery/) is one piece of
-- work: the outbox's rows are per target and appear only once delivered,
-- so the claim is a row of its own per game, kept once made.
CREATE TABLE outbox_claims (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    claimed_by  TEXT,
    lease_until REAL
);
