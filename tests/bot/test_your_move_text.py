"""The daily digest's wording: every game waiting for the player fits one direct message,
whatever their number and names; those that do not fit are counted, pointing to `/next`."""

from __future__ import annotations

import pytest

from bot.cogs.play.your_move import summary_link
from bot.services import GameList, GameSummary, PlayerRef
from bot.services.play.finding import TO_MOVE_LISTED
from bot.ui import text as wording
from rules import Color
from tests.support.snapshots import DEADLINE


def waiting(count: int, *, name: str = "m" * 32) -> list[GameSummary]:
    """`count` games to move, with the longest names Discord allows and 19-digit ids."""
    return [
        GameSummary(
            id=10**6 + n,
            opponent=PlayerRef(n, name),
            your_color=Color.GOTE if n % 2 else Color.SENTE,
            your_turn=True,
            ply=300,
            deadline=None if n % 3 == 0 else DEADLINE,
            thread_id=10**18 + n,
            guild_id=10**18 - n,
        )
        for n in range(count)
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("more", [0, 40])
def test_a_full_digest_fits_one_message_and_counts_the_rest(lang: str, more: int) -> None:
    games = waiting(TO_MOVE_LISTED)
    links = {game.id: summary_link(game) for game in games}
    digest = wording.digest_text(lang, GameList(games, more), links)
    assert len(digest) <= wording.MAX_MESSAGE
    lines = digest.splitlines()
    shown = len(lines) - 2  # a heading, and the count of the rest
    assert 5 <= shown < TO_MOVE_LISTED
    rest = TO_MOVE_LISTED + more - shown
    assert lines[-1] == (
        f"…and {rest} more: `/next` shows them one by one."
        if lang == "en"
        else f"…ほか{rest}局。`/次の対局` で一局ずつ表示できます。"
    )
    assert all(links[game.id] in digest for game in games[:shown])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_short_digest_lists_every_game_with_its_link_and_no_count(lang: str) -> None:
    games = waiting(3, name="bob")
    digest = wording.digest_text(lang, GameList(games, 0), {g.id: summary_link(g) for g in games})
    lines = digest.splitlines()
    assert len(lines) == 4
    assert lines[1].endswith(f"https://discord.com/channels/{10**18}/{10**18}")
    assert ("no deadline" if lang == "en" else "期限なし") in lines[1]
    assert "<t:" in lines[2] and "<t:" in lines[3]
    assert ("You (☖) vs bob" if lang == "en" else "あなた（☖）対 bobさん") in lines[2]
