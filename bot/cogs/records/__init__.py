"""Features of records and positions: /board and /games, /export and /replay."""
