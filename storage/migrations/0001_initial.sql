-- 0001_initial: games, seats, the append-only action log, snapshots, messages.
--
-- Applied by storage/database.py inside one transaction, which also sets
-- PRAGMA user_version.  Do not write BEGIN/COMMIT here.  Never edit a
-- migration that has shipped: add the next numbered file instead.  (The
-- PostgreSQL block below came with PostgreSQL; SQLite's effect is unchanged.)
--
-- Times are REAL seconds since the epoch, passed in from Python.
-- Discord ids (snowflakes, < 2^63) are INTEGER.  JSON is TEXT.

-- AUTOINCREMENT: an id is never reused after a game is deleted, so an old
-- button whose custom_id carries a game id can never act on a newer game.
CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    engine          TEXT    NOT NULL,
    engine_revision INTEGER NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',
    status          TEXT    NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    -- Number of entries in the action log (= seq of the last one).
    version         INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    creator_id      INTEGER NOT NULL,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    outcome         TEXT
);

CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_thread  ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_by_status  ON games (status);

-- Seats are numbered 0..n-1 without gaps.
CREATE TABLE seats (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    joined_at    REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
) WITHOUT ROWID;

CREATE INDEX seats_by_user ON seats (user_id);

-- The action log.  seq runs 1, 2, 3... per game; games.version is the last seq.
-- actor: a seat, or -1 for the chance player.
-- private_to: NULL = public; a seat = only that player may read `action`; -1 = nobody.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    actor      INTEGER NOT NULL CHECK (actor >= -1),
    action     TEXT    NOT NULL,
    narration  TEXT    NOT NULL,
    private_to INTEGER CHECK (private_to IS NULL OR private_to >= -1),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Append-only.  UPDATE is always refused.  DELETE is refused while the game
-- row exists; deleting the game itself still removes its log, because the
-- ON DELETE CASCADE runs after the games row is gone, so the WHEN clause is
-- false for it.
-- dialect sqlite
CREATE TRIGGER actions_no_update
BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: entries cannot be changed');
END;

CREATE TRIGGER actions_no_delete
BEFORE DELETE ON actions
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only: delete the game, not its entries');
END;
-- dialect postgresql
-- The same two triggers.  A trigger's WHEN cannot hold a subquery here, so
-- the function asks; it raises an integrity violation (SQLSTATE 23000), as
-- SQLite's RAISE(ABORT) is one.
CREATE FUNCTION actions_no_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the action log is append-only: entries cannot be changed'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER actions_no_update
BEFORE UPDATE ON actions
FOR EACH ROW EXECUTE FUNCTION actions_no_update();

CREATE FUNCTION actions_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id) THEN
        RAISE EXCEPTION 'the action log is append-only: delete the game, not its entries'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER actions_no_delete
BEFORE DELETE ON actions
FOR EACH ROW EXECUTE FUNCTION actions_no_delete();
-- dialect end

-- A state snapshot taken after entry `seq` (0 = before any entry), as JSON.
CREATE TABLE snapshots (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    state      TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- The Discord messages a game keeps up to date, by kind ('lobby', 'board', ...).
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
