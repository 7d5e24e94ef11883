"""Wording of records and positions: the board's forms and captions, exports, positions
from anywhere, finished games and replays."""
