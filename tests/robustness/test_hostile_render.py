"""A member who makes the renderer work hard does not hold up anyone else's board.

Through the real client and the fake Discord: carol shows a record whose sente is named
with 12,000 characters, and asks twice at once for the animation of a long game; alice's
`/move` meanwhile is answered with its board, the event loop never stalls for more than
100 ms, carol gets her board with the name cut (or one sentence), one animation, made
once, of the last moves that fit the upload limit, and her second request is answered
with one sentence (or the same animation, if the first was already made).
"""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from PIL import Image

import render
from bot.ui import boards
from render import frames_within
from tests.fakediscord import UserFile
from tests.support.club import Club
from tests.support.long_game import long_game
from tests.support.stall import LoopProbe

LONG_PLIES = 160
UPLOAD_LIMIT = 1_000_000  # the fake's upload limit here: 160 moves do not fit it
HOSTILE_NAME = "長" * 12_000
HOSTILE_KIF = f"先手：{HOSTILE_NAME}\n後手：b\n手数----指手---------消費時間--\n   1 ７六歩(77)\n"


@pytest.fixture
def small_uploads(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("tests.fakediscord.members.ATTACHMENT_SIZE_LIMIT", UPLOAD_LIMIT)
    return UPLOAD_LIMIT


async def test_a_hostile_board_and_animations_do_not_hold_up_a_move(
    club: Club, small_uploads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[int] = []
    real = render.render_gif

    def counted(*args: object, **kwargs: object) -> bytes:
        builds.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("bot.ui.boards.render_gif", counted)
    table = await club.new_game()  # alice (sente) against bob
    long = await club.new_game(club.carol, club.bob)
    players = (club.carol.user.id, club.bob.user.id)
    for ply, played in enumerate(long_game(LONG_PLIES, seed=7)):
        await club.service.moves.play(long.game_id, players[ply % 2], played.usi())
    fake = club.fake

    async with LoopProbe() as probe:
        hostile = await fake.slash(
            "board",
            {"record": UserFile("long-name.kif", HOSTILE_KIF.encode())},
            user=club.carol,
            channel=club.channel,
            wait=False,
        )
        exports = [
            await fake.slash(
                "export",
                {"game": str(long.game_id), "format": "gif"},
                user=club.carol,
                channel=club.channel,
                wait=False,
            )
            for _ in range(2)
        ]
        started = asyncio.get_running_loop().time()
        move = await club.move(club.alice, "7g7f", table, fast=True)
        answered = asyncio.get_running_loop().time() - started
        for result in (hostile, *exports):
            await result.wait_final(timeout=120, scope="interaction")
    assert probe.worst < 0.1, probe.report()

    assert not move.ephemeral and move.content.startswith("1. ")
    [board] = move.files
    with Image.open(io.BytesIO(board.data)) as image:
        assert image.format == "PNG"
    assert answered < 5, answered

    if hostile.files:  # the board, its name cut
        [shown] = hostile.files
        with Image.open(io.BytesIO(shown.data)) as image:
            assert image.format == "PNG"
        # Discord's limit; the readers cap names in the text (another change).
        assert len(hostile.content) <= 2000 and HOSTILE_NAME not in hostile.content
    else:  # or one sentence
        assert hostile.ephemeral and 0 < len(hostile.content) < 300, hostile.content

    gifs = [result for result in exports if result.files]
    assert gifs, [result.content for result in exports]
    [gif] = gifs[0].files
    framed = frames_within(UPLOAD_LIMIT - boards.UPLOAD_MARGIN)
    assert framed < LONG_PLIES + 1
    assert len(gif.data) <= UPLOAD_LIMIT
    with Image.open(io.BytesIO(gif.data)) as image:
        assert image.format == "GIF" and getattr(image, "n_frames", 1) == framed
    assert f"its last {framed - 1} moves, up to move {LONG_PLIES}" in gifs[0].content
    other = next(result for result in exports if result is not gifs[0])
    if other.files:
        assert other.files[0].data == gif.data
    else:
        assert other.content == (
            "Your animation is still being made; wait for it before asking for another."
        )
    assert len(builds) == 1
    gif_threads = [t for t in threading.enumerate() if t.name.startswith("render-gif")]
    assert len(gif_threads) <= boards.GIF_THREADS


async def test_a_long_game_ends_with_the_animation_of_its_last_moves(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "MAX_GIF_FRAMES", 21)  # as if the game passed the limit
    table = await club.new_game()
    players = (club.alice.user.id, club.bob.user.id)
    for ply, played in enumerate(long_game(40, seed=11)):
        await club.service.moves.play(table.game_id, players[ply % 2], played.usi())
    async with LoopProbe() as probe:
        await club.resign(table, club.alice)
        [ending] = await club.posts(table.thread, "resigned")
    assert probe.worst < 0.1, probe.report()
    assert "so its animation shows the last 20 moves." in ending.content
    [gif] = [file for file in ending.attachments if file.filename.endswith(".gif")]
    with Image.open(io.BytesIO(gif.data)) as image:
        assert getattr(image, "n_frames", 1) == 21


EMOJI_NAME = "🌸長" * 6_000  # the most font runs a name can have: one per character


async def test_a_name_of_emoji_between_kanji_does_not_hold_up_a_move(club: Club) -> None:
    """Emoji are drawn from the symbols' font a run at a time: a name alternating emoji and
    kanji is cut before it is drawn like any long name, and alice's move goes on."""
    table = await club.new_game()
    record = f"先手：{EMOJI_NAME}\n後手：b\n手数----指手---------消費時間--\n   1 ７六歩(77)\n"
    async with LoopProbe() as probe:
        hostile = await club.fake.slash(
            "board",
            {"record": UserFile("emoji.kif", record.encode())},
            user=club.carol,
            channel=club.channel,
            wait=False,
        )
        move = await club.move(club.alice, "7g7f", table, fast=True)
        await hostile.wait_final(timeout=60, scope="interaction")
    assert probe.worst < 0.1, probe.report()
    assert not move.ephemeral and move.content.startswith("1. ") and move.files
    [shown] = hostile.files
    with Image.open(io.BytesIO(shown.data)) as image:
        assert image.format == "PNG"
    assert len(hostile.content) <= 2000
