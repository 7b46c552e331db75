-- 0002_outbox: what each game last delivered to Discord, so delivery can
-- catch up after a crash or a failed post (see docs/ARCHITECTURE.md, "Outbox").
--
-- One row per game and target: 'board' (the public board message) or
-- 'seat:<n>' (a seat's private view by DM).
--   version  the game version last delivered to that target
--   awaited  board: JSON list of the seats the posted board waits on, so the
--            next delivery knows whether anyone new must act (post) or the
--            awaited set only shrank (edit in place)
--   over     board: 1 once the final board of a finished game was posted
--   simultaneous  board: 1 when the board message showed a simultaneous
--            phase (several seats to move), so its end is worth a new message
--   digest   seat: a fingerprint of the private view and the private choices
--            last delivered; a DM goes out only when it changes
--   notice   seat: 1 once the channel was told this player's DMs are closed
CREATE TABLE outbox (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    target  TEXT    NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 0),
    awaited TEXT    NOT NULL DEFAULT '[]',
    over    INTEGER NOT NULL DEFAULT 0 CHECK (over IN (0, 1)),
    simultaneous INTEGER NOT NULL DEFAULT 0 CHECK (simultaneous IN (0, 1)),
    digest  TEXT    NOT NULL DEFAULT '',
    notice  INTEGER NOT NULL DEFAULT 0 CHECK (notice IN (0, 1)),
    PRIMARY KEY (game_id, target)
) WITHOUT ROWID;

-- Games that were already running when this migration ran were delivered by
-- the older code: mark their boards as delivered so an upgrade re-posts nothing.
INSERT INTO outbox (game_id, target, version, over)
SELECT id, 'board', version, CASE WHEN status IN ('finished', 'abandoned') THEN 1 ELSE 0 END
FROM games WHERE status <> 'lobby';
