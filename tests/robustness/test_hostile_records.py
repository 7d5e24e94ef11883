"""Hostile records through the real client and the fake Discord: nobody can stall the bot.

A member pastes records built to make a reader slow as `/board position:`, uploads one of
256 KiB as `/board record:`, and offers a `/challenge` from one, while two others play
their game: each of their moves is answered with its board meanwhile, the event loop
never stalls more than 100 ms (`LoopProbe`), and the attacker gets one sentence (or the
board, where the text is a record after all), in English and in Japanese. A read that
overruns its time limit is answered with a sentence and its worker is replaced.
"""

from __future__ import annotations

import asyncio
import os

from bot.services import MAX_RECORD_BYTES
from tests.fakediscord import InteractionResult, UserFile
from tests.support.club import Club, Table
from tests.support.hostile_records import shapes
from tests.support.japanese import assert_japanese
from tests.support.stall import LoopProbe

#: Discord's longest text option (`/board position:` takes up to 6,000 characters).
PASTE = 6000
PASTED = (
    "kif-mixed-gap2-one-line",  # blanks inside the time field, where it backtracked
    "kif-ideographic-gap0-one-line",
    "paste-mixed-row-cells",
    "paste-many-numbers",
    "paste-times-in-header",
    "paste-numbers-in-comments",  # each a move number the KIF cutter weighs
    "csa-commas-after-name-one-line",  # commas a CSA name may hold
    "kif-digits-move-number-one-line",
    "kif-long-name-one-line",  # a record after all: shown, its name cut
    "csa-long-info-one-line",
)
#: Moves of the other game, played while the attacker is at work.
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b")
STALL = 0.1


def _hostile_file(shape: str, bytes_a_blank: float) -> UserFile:
    """A record file of that shape, about as large as the limit lets it be."""
    data = shapes(int((MAX_RECORD_BYTES - 512) / bytes_a_blank))[shape].encode()
    assert MAX_RECORD_BYTES * 0.9 < len(data) <= MAX_RECORD_BYTES
    return UserFile(f"{shape}.kif", data)


# Runs of blanks inside a KIF time field cut short, where the old pattern backtracked: a
# space, a tab and U+3000 (five bytes for three), and U+3000 alone (three bytes).
MIXED_FILE = ("kif-mixed-gap7-cut", 5 / 3)
IDEOGRAPHIC_FILE = ("kif-ideographic-gap13-cut", 3)
READABLE_FILE = ("kif-mixed-gap2", 5 / 3)  # a record after all: its board is shown


def _one_sentence_or_board(result: InteractionResult) -> None:
    assert result.ephemeral, result.content
    if result.files:  # the text was a record after all
        return
    text = result.content
    assert text and "\n" not in text and len(text) <= 400, text


async def _play(club: Club, table: Table) -> None:
    for number, usi in enumerate(MOVES):
        mover = club.alice if number % 2 == 0 else club.bob
        result = await club.move(mover, usi, table)
        assert not result.ephemeral and result.files, f"{usi}: {result.content}"


async def test_hostile_records_neither_stall_the_bot_nor_crash_it(club: Club) -> None:
    table = await club.new_game()
    hostile = shapes(PASTE - 200)  # with the heads of the shapes, within Discord's limit
    files = [_hostile_file(*shape) for shape in (MIXED_FILE, IDEOGRAPHIC_FILE, READABLE_FILE)]
    answers: list[InteractionResult] = []

    async def attack() -> None:
        for shape in PASTED:
            answers.append(await club.fake.slash(
                "board", {"position": hostile[shape][:PASTE]}, user=club.carol,
                channel=club.channel,
            ))  # fmt: skip
        for file in files:
            answers.append(await club.fake.slash(
                "board", {"record": file}, user=club.carol, channel=club.channel
            ))  # fmt: skip
        start = hostile["paste-mixed-row-cells"][:PASTE]
        challenge = await club.fake.slash(
            "challenge", {"opponent": club.alice, "start": start},
            user=club.carol, channel=club.channel,
        )  # fmt: skip
        assert challenge.ephemeral and challenge.content and "\n" not in challenge.content
        filed = await club.fake.slash(
            "challenge", {"opponent": club.alice, "record": files[0]},
            user=club.carol, channel=club.channel,
        )  # fmt: skip
        assert filed.ephemeral and filed.content and "\n" not in filed.content

    async with LoopProbe() as probe:
        await asyncio.gather(attack(), _play(club, table))
    assert probe.worst < STALL, probe.report()
    for result in answers:
        _one_sentence_or_board(result)
    named = dict(zip(PASTED, answers, strict=False))
    assert "at most 6 digits" in named["kif-digits-move-number-one-line"].content
    assert named["kif-long-name-one-line"].files  # read, with the name cut
    assert "…" in named["kif-long-name-one-line"].content
    assert [bool(result.files) for result in answers[len(PASTED) :]] == [False, False, True]
    assert len((await club.game(table.game_id)).game.moves) == len(MOVES)


async def test_the_refusals_read_in_japanese(club: Club) -> None:
    club.carol.user.locale = "ja"
    hostile = shapes(PASTE - 200)
    for shape in ("kif-digits-move-number-one-line", "paste-mixed-row-cells"):
        result = await club.fake.slash(
            "board", {"position": hostile[shape][:PASTE]}, user=club.carol, channel=club.channel
        )
        _one_sentence_or_board(result)
        assert not result.files
        assert_japanese(result)
    filed = await club.fake.slash(
        "board", {"record": _hostile_file(*MIXED_FILE)}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    _one_sentence_or_board(filed)
    assert_japanese(filed)


async def test_a_read_past_the_time_limit_is_answered_and_its_worker_replaced(
    club: Club,
) -> None:
    assert club.bot is not None
    readers = club.bot.readers
    first = await club.fake.slash(
        "board", {"position": "4k4/9/4G4/9/9/9/9/9/9 b G 1"}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    assert first.files  # a worker is up
    [worker] = readers._idle
    readers.time_limit = 0.001  # any read of a large file overruns now
    english = await club.fake.slash(
        "board", {"record": _hostile_file(*MIXED_FILE)}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    assert english.content.startswith("That record took too long to read"), english.content
    assert worker.process.returncode is not None  # killed
    club.carol.user.locale = "ja"
    japanese = await club.fake.slash(
        "board", {"record": _hostile_file(*READABLE_FILE)}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    assert japanese.content.startswith("棋譜の読み込みに時間がかかりすぎた"), japanese.content
    assert readers.overruns == 2
    readers.time_limit = 5.0
    again = await club.fake.slash(
        "board", {"position": "4k4/9/4G4/9/9/9/9/9/9 b G 1"}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    assert again.files, again.content
    pids = [w.process.pid for w in readers._idle]
    await club.bot.readers.close()
    for pid in pids:  # gone once the pool is closed, not left behind
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        raise AssertionError(f"reader worker {pid} is still running")
