"""Features of the clock: what is posted when time runs (time-outs, reminders, expiries)
and /vacation."""
