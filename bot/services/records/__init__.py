"""Records and positions: reading members' records and positions, exports, and replays of a
game at an earlier move."""
