"""Features of the computer: /computer and /analyse."""
