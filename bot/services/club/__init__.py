"""Challenges and the club: challenges and rematches, who is told of what, members'
preferences, servers' settings and time zones."""
