"""Tournaments: the pure knowledge a club's season runs on, without storage or Discord.

`pairings` says who plays whom and with which colour (round robin by FIDE's Berger tables,
seeded groups, seeded knockout brackets, the games of a knockout match and its replays),
`ranking` turns results into points, tie-breaks and ranks, `handicaps` picks the
handicap a rating difference calls for, and `teams` pairs two teams board by board and
keeps a team match's score. A player is an `int` (a member's id or a seat):
the service that stores tournaments maps its entrants onto these functions.
"""
