"""A challenge's terms and its game's are stored in the same columns by one mapping
(`bot.db.terms`): whatever terms go in come back out of either table, and the columns read
around them keep their own values."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.db import Database, NewGame, Terms
from rules import Handicap

from .conftest import ALICE, BOB, START, new_challenge

TERMS = [
    Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27"),
    Terms(
        bank=timedelta(hours=2, microseconds=1),
        period=None,
        handicap="lance",
        impasse_rule="24",
        takebacks="never",
        rated=True,
    ),
    Terms(
        bank=timedelta(days=1),
        period=timedelta(minutes=30),
        handicap="two_piece",
        impasse_rule="24",
        rated=True,
    ),
]


@pytest.mark.parametrize("terms", TERMS, ids=["default", "no-limit-never-rated", "rated"])
async def test_terms_come_back_from_a_challenge_and_from_its_game(
    db: Database, terms: Terms
) -> None:
    sfen = Handicap.EVEN.sfen
    async with db.transaction() as tx:
        await tx.players.upsert(ALICE.to_row(), START)
        await tx.players.upsert(BOB.to_row(), START)
        offered = replace(new_challenge(BOB.user_id), terms=terms, start_sfen=sfen)
        challenge_id = await tx.challenges.create(offered)
        game_id = await tx.games.create(
            NewGame(7, 8, BOB.user_id, ALICE.user_id, terms, sfen, START)
        )
    async with db.read() as tx:
        challenge = await tx.challenges.get(challenge_id)
        game = await tx.games.get(game_id)
    assert challenge is not None and game is not None
    assert challenge.terms == terms and game.terms == terms
    assert (challenge.color, challenge.start_sfen, challenge.status) == ("random", sfen, "open")
    assert (challenge.expires_at, challenge.rematch_of) == (offered.expires_at, None)
    assert (game.guild_id, game.channel_id, game.start_sfen, game.status) == (7, 8, sfen, "active")
    assert (game.sente.name, game.gote.name, game.ply, game.sfen) == ("Bob", "Alice", 0, sfen)
    assert game.sente_bank == game.gote_bank == terms.bank
