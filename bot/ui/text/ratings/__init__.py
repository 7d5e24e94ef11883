"""Wording of ratings: rated challenges, rating changes, /rating, /leaderboard and /profile."""
