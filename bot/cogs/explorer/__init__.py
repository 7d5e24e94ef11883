"""Features of the explorer: /explorer and its menu of moves to follow."""
