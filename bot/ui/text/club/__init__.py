"""Wording of challenges and the club: open challenges, rematches and /help."""
