-- 0003_async_play: what keeps games moving when players are away for hours
-- or days (docs/ARCHITECTURE.md, "Asynchronous play"): table options read by
-- the service (clock, timeout policy, reminder delay), who controls each seat
-- now, each seat's clock, the timers that fire reminders and timeouts,
-- server settings and players' vacations.
--
-- Timers are derived data: the service can recompute every one of them from
-- the games, seats, settings and vacations, and does so at start-up, so a
-- crash between a move and its timers loses nothing.

-- Options the service reads, not the engine: {"clock": "1d", "timeout":
-- "substitute", "reminder_hours": 12}.  Kept apart from `options`, which is
-- exactly what the engine's setup receives.
ALTER TABLE games ADD COLUMN table_options TEXT NOT NULL DEFAULT '{}';
-- When a moderator paused the game (NULL: running).  Clocks stop meanwhile.
ALTER TABLE games ADD COLUMN paused_at REAL;

-- controller: 'human', or 'auto' once the seat passed to the automatic
--   player (resigned, kicked, or out on time in a game of three or more).
-- left_order: 1 for the first seat that passed to the automatic player, 2 for
--   the next...: such seats rank last, the first to leave lowest.
-- timeouts: consecutive timeouts under the `substitute` policy.
-- clock_left: seconds left on the seat's clock (NULL: the game has no clock).
-- clock_since: when the clock last started running (NULL: stopped).
ALTER TABLE seats ADD COLUMN controller TEXT NOT NULL DEFAULT 'human'
    CHECK (controller IN ('human', 'auto'));
ALTER TABLE seats ADD COLUMN left_order INTEGER;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN clock_left REAL;
ALTER TABLE seats ADD COLUMN clock_since REAL;

-- One row per pending deadline.  kind 'remind' (seat -1: the game's players
-- who must act are reminded), 'clock' (a seat's time runs out).  `version` is
-- the game version the timer was set for: a timer whose game has moved on is
-- void and is recomputed, never acted on.
CREATE TABLE timers (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL CHECK (kind IN ('remind', 'clock')),
    seat    INTEGER NOT NULL CHECK (seat >= -1),
    due     REAL    NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 0),
    -- How many reminders were sent for this wait (remind only).
    count   INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
    PRIMARY KEY (game_id, kind, seat)
) WITHOUT ROWID;

-- The scheduler only ever asks for the earliest.
CREATE INDEX timers_by_due ON timers (due);

-- A server's settings, as JSON ({"threads": true, "clock": "none", ...});
-- a missing key means its default.
CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL DEFAULT '{}',
    updated_at REAL NOT NULL
);

-- Vacations (/game away): the player's clocks stop in all their games.
CREATE TABLE vacations (
    user_id INTEGER NOT NULL,
    starts  REAL    NOT NULL,
    ends    REAL    NOT NULL CHECK (ends >= starts),
    PRIMARY KEY (user_id, starts)
) WITHOUT ROWID;
