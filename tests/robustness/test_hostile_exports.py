"""A member who fills a Shift_JIS export with characters it lacks does not hold up anyone.

Through the real client and the fake Discord: carol keeps the most notes a member may keep
on a long game, each as long as a note may be and made of joined emoji (every character
goes through the Shift_JIS conversion one by one), and asks for her private `.kif` twice at
once; alice's `/move` meanwhile is answered with its board, the event loop never stalls for
more than 100 ms, and carol gets her file with each emoji as one 〓 and one sentence saying
so.
"""

from __future__ import annotations

import asyncio

from bot.services import MAX_NOTE_LENGTH, MAX_NOTES
from rules.notation import read_record
from tests.support.club import Club
from tests.support.long_game import long_game
from tests.support.stall import LoopProbe

PLIES = 300
HOSTILE_NOTE = ("🌸\u200d👩\u200d🚀" * MAX_NOTE_LENGTH)[:MAX_NOTE_LENGTH]


async def test_a_hostile_shift_jis_export_does_not_hold_up_a_move(club: Club) -> None:
    table = await club.new_game()  # alice (sente) against bob
    long = await club.new_game(club.carol, club.bob)
    players = (club.carol.user.id, club.bob.user.id)
    for ply, played in enumerate(long_game(PLIES, seed=23)):
        await club.service.moves.play(long.game_id, players[ply % 2], played.usi())
        if ply % (PLIES // MAX_NOTES) == 0 and ply // (PLIES // MAX_NOTES) < MAX_NOTES:
            await club.service.notes.add(long.game_id, club.carol.user.id, HOSTILE_NOTE)
    assert len(await club.service.notes.of(long.game_id, club.carol.user.id)) == MAX_NOTES

    async with LoopProbe() as probe:
        exports = [
            await club.fake.slash(
                "export",
                {"game": str(long.game_id), "public": False},
                user=club.carol,
                channel=club.channel,
                wait=False,
            )
            for _ in range(2)
        ]
        started = asyncio.get_running_loop().time()
        move = await club.move(club.alice, "7g7f", table, fast=True)
        answered = asyncio.get_running_loop().time() - started
        for result in exports:
            await result.wait_final(timeout=60, scope="interaction")
    assert probe.worst < 0.1, probe.report()
    assert not move.ephemeral and move.content.startswith("1. ") and move.files
    assert answered < 5, answered

    for result in exports:
        assert result.ephemeral
        [record] = result.files
        assert record.filename.endswith(".kif")
        assert result.content.count("〓") == 1 and "KIFU format keeps" in result.content
        text = record.data.decode("cp932")
        # Each 🌸‍👩‍🚀 is one 〓: a joined emoji is one character to its reader.
        assert f"*{'〓' * (MAX_NOTE_LENGTH // 5)}\r\n" in text
        assert len(read_record(record.data).game.moves) == PLIES
