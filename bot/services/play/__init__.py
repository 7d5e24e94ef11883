"""Playing a game: finding and loading it, moves and the player's own endings, takebacks,
forecasts, notes and impasse."""
