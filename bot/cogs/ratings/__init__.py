"""Features of ratings: /rating, /leaderboard and /profile."""
