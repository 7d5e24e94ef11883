"""The features, one module each with its commands and buttons, loaded by name as
discord.py extensions (see `bot.client.EXTENSIONS`)."""
