"""The clock: time controls, deadlines and the task that settles them, vacations, and the
daily digest of waiting games."""
