-- 0007_player_settings: each player's own notifications (issue 16), kept per
-- user across every server: how they are told it is their turn (a ping in
-- the game's channel, a DM, or both), how often they are reminded, and
-- their quiet hours in their own time zone.  One JSON object per user, like
-- guild_settings; a missing key means its default.
CREATE TABLE player_settings (
    user_id    INTEGER PRIMARY KEY,
    settings   TEXT NOT NULL DEFAULT '{}',
    updated_at REAL NOT NULL
);
