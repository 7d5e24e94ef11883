"""Wording of the computer: playing it (`/computer`) and its analyses (`/analyse`)."""
