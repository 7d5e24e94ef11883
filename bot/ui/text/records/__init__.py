"""Wording of records and positions: the board's forms, positions from anywhere, finished
games and replays."""
