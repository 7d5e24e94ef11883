"""The explorer over a server's finished games: which moves were played from a position,
how often and with what results (`explorer`), over an index written once per game when it
ends (`index`)."""
