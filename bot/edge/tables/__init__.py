"""What a game's table shows in its channel, in players' words (pure: no
component and no Discord call here): the lobby message, which is a
tournament game's table message too, and what its options mean
(:mod:`.lobbies`); the words of a game's menus and what its public board
offers (:mod:`.menus`).

Shared below the features that show them: delivery keeps a running game's
lobby message current and draws the board's choices under its posts; the
lobby opens lobbies and explains options; play builds the board's and the
private menus and answers their picks; the tournament desk posts its
games' table messages.  Delivery is below all of those (they post through
it), so these texts cannot be any one feature's module: a package of their
own keeps the features' imports one way (the ``no-cycles`` contract takes
each package whole), as ``ports.py``, ``replies.py`` and ``selects.py`` do
for what every feature shares."""
