"""Openings and castles through the real bot: the move that makes an opening clear names
it in its post in the thread (once, in the server's language), `/games` lists it with the
game, `/profile` tallies a member's openings with their results, and a record exported
carries its 戦型; the same in Japanese."""

from __future__ import annotations

from tests.fakediscord import InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese


def _thread_texts(club: Club, table_thread: object) -> list[str]:
    return [m.content for m in club.fake.channel_history(table_thread)]  # type: ignore[arg-type]


async def test_an_opening_is_named_in_the_thread_games_and_profile(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game(alice, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    ranged = await club.move(alice, "2h6h", table)
    assert "Opening: ☗Fourth File Rook." in ranged.content
    reply = await club.move(bob, "8c8d", table)
    assert "Opening:" not in reply.content, "an opening is named once, by its move"
    named = [text for text in _thread_texts(club, table.thread) if "Opening:" in text]
    assert named == [ranged.content], "the board of that move, in the thread, names it once"
    await club.resign(table, bob)
    await club.posts(table.thread, "resigned")

    listed = await club.fake.slash(
        "games", {"status": "finished"}, user=alice, channel=club.channel
    )
    assert listed.ephemeral
    [line] = [line for line in listed.content.splitlines() if f"#{table.game_id}" in line]
    assert line.endswith("· Opening: ☗Fourth File Rook.")

    profile = await club.fake.slash("profile", {"member": alice}, user=carol, channel=club.channel)
    assert "Openings played (won, lost, drawn):" in profile.content
    assert "• Fourth File Rook: 1–0–0" in profile.content
    assert "• Ranging Rook: 1–0–0" in profile.content
    other = await club.fake.slash("profile", {"member": bob}, user=carol, channel=club.channel)
    assert "Openings played" not in other.content


async def test_openings_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d"), (alice, "2h6h")])
    ranged = await club.move(bob, "8b4b", table)
    assert "戦型：☖四間飛車" in ranged.content
    await club.resign(table, alice)
    [ending] = await club.posts(table.thread, "投了")
    results: list[InteractionResult] = [
        await club.fake.slash(command, options, user=bob, channel=club.channel)
        for command, options in (
            ("games", {"status": "finished"}),
            ("profile", {}),
        )
    ]
    assert "戦型：☗四間飛車、☖四間飛車" in results[0].content
    assert "指した戦型（勝ち・負け・引き分け）：" in results[1].content
    assert "• 四間飛車：1勝0敗0分" in results[1].content
    assert_japanese(ranged, ending, *results)
