"""Ratings: the Glicko-2 computation, which games are rated and what an ending changes, and
the standings members look up."""
