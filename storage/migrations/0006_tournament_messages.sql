-- 0006_tournament_messages: what a tournament has said in its channel
-- (issue 11).
--
-- name:       an optional title the moderator gave ("Diwali Cup").
-- message_*:  the announcement with its Join and Leave buttons, edited as
--             players join and rounds pass.
-- announced:  the last thing announced ('round:3', 'final'); set by a guarded
--             UPDATE before posting, so a restart never announces twice.
ALTER TABLE tournaments ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN message_channel_id INTEGER;
ALTER TABLE tournaments ADD COLUMN message_id INTEGER;
ALTER TABLE tournaments ADD COLUMN announced TEXT NOT NULL DEFAULT '';
