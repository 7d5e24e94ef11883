"""Features of playing a game: /move, endings, takebacks, forecasts, notes, /jishogi and /next."""
