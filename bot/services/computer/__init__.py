"""The computer: games against the engine and analyses of finished games."""
