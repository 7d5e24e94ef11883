"""Wording of challenges and the club: challenges and rematches (and the game they start),
a player's preferences, a server's settings, and /help."""
