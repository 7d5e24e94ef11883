"""Tournaments: /tournament and its commands, the announcement with Join and Leave, the
posts of rounds, games and results."""
