"""Helpers shared by the test folders: the club every bot test plays in, the fixtures that
give each test a fresh fake Discord and bot runner, a hand-driven clock, the checks many
tests make, and the bot in a process of its own.

Why one package: these were written once per test module (a server with three members, a
clock, a game started through /challenge and Accept), and copies drift apart.
"""
