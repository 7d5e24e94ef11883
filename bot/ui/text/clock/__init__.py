"""Wording of the clock: vacations (a player away, their clocks paused) and what the clock
posts on its own (reminders, and more time given from their button)."""
