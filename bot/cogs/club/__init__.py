"""Features of challenges and the club: /challenge, /preferences, server settings and /help."""
