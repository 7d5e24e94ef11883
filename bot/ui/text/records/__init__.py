"""Wording of records and positions: the board's forms and captions, `/games` and thread
names, `/replay`, exports, and positions from anywhere."""
