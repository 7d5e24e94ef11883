"""Wording of playing a game: moves and whose turn it is, endings, takebacks, forecasts,
notes, the impasse, which game a command means, and your move (/next, the digest and the
direct messages of a turn)."""
