"""/moderate: the moderators' commands, one group over every feature (seats,
games, tournaments, settings); it stands above them and none imports it."""
