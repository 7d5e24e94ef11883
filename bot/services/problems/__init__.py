"""Mate problems from the club's own games (実戦詰め): found in finished games, posted
once a day, answered privately, revealed the next day."""
