"""Wording of the explorer: what the server's games played from a position."""
