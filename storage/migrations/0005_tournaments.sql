-- 0005_tournaments: tournaments run by moderators (issue 11): the
-- tournament, its players, and each round's tables (a pairing is a table of
-- two), with the game each table plays and its result.
--
-- A restart mid-round loses nothing and starts nothing twice: a round's
-- tables are written in one transaction before any game starts; a table is
-- linked to its game only while it has none (`game_id` is UNIQUE and set by
-- a guarded UPDATE); a result is recorded only once.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    engine      TEXT    NOT NULL,
    format      TEXT    NOT NULL
                CHECK (format IN ('swiss', 'round_robin', 'elimination', 'pods')),
    -- Planned rounds (0: as many as the format needs).
    rounds      INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),
    -- Seats per table: 2 for two-sided formats, 3 to 5 for pods.
    table_size  INTEGER NOT NULL DEFAULT 2 CHECK (table_size BETWEEN 2 AND 5),
    -- The lobby options every game of the tournament gets (engine and table).
    options     TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    -- The newest round paired (0 before the first).
    round       INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    creator_id  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

-- dropped_after: the last round the player took part in (NULL: still in).
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    display_name  TEXT    NOT NULL,
    rating        REAL    NOT NULL DEFAULT 0,
    joined_at     REAL    NOT NULL,
    dropped_after INTEGER CHECK (dropped_after IS NULL OR dropped_after >= 0),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

-- seats:  JSON list of user ids in seat order; a single id is a bye.
-- places: JSON list, the place of each seat (1 best; equal places tie), once
--         the result is in.
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    number        INTEGER NOT NULL CHECK (number >= 1),
    seats         TEXT    NOT NULL,
    game_id       INTEGER UNIQUE REFERENCES games (id),
    places        TEXT,
    adjudicated   INTEGER NOT NULL DEFAULT 0 CHECK (adjudicated IN (0, 1)),
    PRIMARY KEY (tournament_id, round, number)
) WITHOUT ROWID;
