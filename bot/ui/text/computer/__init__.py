"""Wording of the computer: /computer, its failures, and /analyse."""
