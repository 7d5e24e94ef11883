"""Wording of playing a game: its start, moves and endings, takebacks, forecasts, notes,
turn messages and /next."""
