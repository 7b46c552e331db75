-- 0011_takebacks: what a takeback needs (issue 31).
--
-- undo_points: per game, one row for each move a person made (not one the
-- automatic player made for them) that a takeback could still reach,
-- written in the same transaction as the move (GameStore.commit).
--   version  the game's version before the move: what taking it back
--            returns the game to (the move is log entry version + 1)
--   seat     the seat that moved, and user_id the person who held it then
--            (a seat handed over since is not the new holder's to undo)
--   clocks   every seat's clock just before the move, as JSON
--            {"<seat>": [clock_left, clock_since]} ({} without a clock):
--            the clocks a takeback restores (nobody gains time)
-- A takeback never crosses chance, so the rows before a chance entry are
-- forgotten when it is written; a takeback forgets the rows of the moves it
-- undid; a game that ends keeps none.
CREATE TABLE undo_points (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL CHECK (version >= 0),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER NOT NULL,
    clocks  TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (game_id, version)
) WITHOUT ROWID;

-- takeback_asks: a player's request to take back a move after others
-- moved, which every other person at the table must agree to.  At most
-- one per game; it holds only while the game is still at `version` (any
-- action since makes it void), and is replaced by the next request.
--   seat     who asked; target: the version the game would return to
--   agreed   JSON list of the seats that agreed so far
CREATE TABLE takeback_asks (
    game_id  INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    target   INTEGER NOT NULL CHECK (target >= 0),
    version  INTEGER NOT NULL CHECK (version >= 0),
    agreed   TEXT    NOT NULL DEFAULT '[]',
    asked_at REAL    NOT NULL
) WITHOUT ROWID;
