"""Tests of the fake Discord itself (:mod:`tests.fakediscord`): its routes and rules, through a
toy discord.py bot, over the raw wire, and its validators alone."""
