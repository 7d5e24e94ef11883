"""Tournaments: the wording of crosstables and standings."""
