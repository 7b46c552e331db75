-- 0010_followers: members who follow a game they do not play (issue 21,
-- /game follow), and an index for the history of finished games
-- (/game history).
--
-- One row per game and follower.  What a follower was last sent is kept in
-- the outbox, like a seat's DMs: target 'follow:<user_id>', digest 'owed'
-- (a new board) or 'owed:end' (the game ended), then 'sent' or 'dropped'.
--   every_move  1: a DM with every new public board; 0: one DM when the
--               game ends
--   dms_closed  1 once Discord refused a DM to them (code 50007): the bot
--               stops trying for this game until they follow it again
--   since       when they followed (or last changed their preference)
CREATE TABLE followers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    every_move INTEGER NOT NULL DEFAULT 0 CHECK (every_move IN (0, 1)),
    dms_closed INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1)),
    since      REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

-- A member's follows (/game unfollow's suggestions).
CREATE INDEX followers_by_user ON followers (user_id);

-- /game history: a server's finished games, newest first.
CREATE INDEX games_by_guild_finished ON games (guild_id, updated_at)
    WHERE status IN ('finished', 'abandoned');
