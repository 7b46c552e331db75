-- 0004_ratings: OpenSkill ratings (Plackett-Luce), one per player per game
-- per server, and the history of every rated game (issue 11).
--
-- The leaderboard orders by the conservative estimate, OpenSkill's
-- ordinal: mu - 3 * sigma.  Ratings are written only by
-- storage.ratings.RatingStore.apply, one transaction per finished game.

-- The current rating of a player in one game on one server.
--   games  rated games played (also the row's version: apply checks it)
--   wins   of those, games the player's side finished first (a draw between
--          every rated side is not a win)
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    engine     TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins       INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0 AND wins <= games),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, engine, user_id)
) WITHOUT ROWID;

-- Profiles: every game's rating of one player on one server.
CREATE INDEX ratings_by_user ON ratings (guild_id, user_id);

-- One row per rated player of a rated game.  The primary key is the guard
-- that a game is rated once only, across restarts.  No foreign key to games:
-- the history stays the record of how a rating came to be, and game ids are
-- never reused.
--   place  1 = first; players sharing a place share the number
--   won    1 if the player's side finished first (see ratings.wins)
CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    engine       TEXT    NOT NULL,
    user_id      INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),
    won          INTEGER NOT NULL DEFAULT 0 CHECK (won IN (0, 1)),
    created_at   REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- Recent results of a player (profiles), and trends per game (leaderboards).
CREATE INDEX rating_history_by_user ON rating_history (guild_id, user_id, created_at);
CREATE INDEX rating_history_by_rating
    ON rating_history (guild_id, engine, user_id, created_at);
