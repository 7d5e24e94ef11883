"""Private notes through the real bot: `/note` and `/notes` answer only their author, in
their language; a private `/export` carries the asker's notes as KIF comments, a public one
never does, and nobody's export carries anyone else's notes."""

from __future__ import annotations

from rules.notation import read_record
from tests.fakediscord import FakeMember, InteractionResult
from tests.support.checks import record_text
from tests.support.club import Club, Table
from tests.support.japanese import assert_japanese


async def note(club: Club, member: FakeMember, text: str, table: Table) -> InteractionResult:
    result = await club.fake.slash("note", {"text": text}, user=member, channel=table.thread)
    assert result.ephemeral, result.content
    return result


async def export(club: Club, member: FakeMember, table: Table, **options: object) -> str:
    result = await club.fake.slash("export", dict(options), user=member, channel=table.thread)
    [record] = result.files
    return record_text(record)


async def test_notes_are_private_and_go_into_the_private_export(club: Club) -> None:
    table = await club.new_game()
    posted = len(club.fake.channel_history(table.thread))
    saved = await note(club, club.alice, "Plan: Ranging Rook", table)
    assert "saved at move 0" in saved.content and "Only you can see it" in saved.content
    await club.play(table, [(club.alice, "P-7f"), (club.bob, "P-3d")])
    posted += 2
    await note(club, club.alice, "He opened the *bishop* @everyone", table)
    await note(club, club.carol, "Carol's study", table)  # a spectator keeps notes too
    assert len(club.fake.channel_history(table.thread)) == posted, "a note reached the thread"

    listed = await club.fake.slash("notes", {}, user=club.alice, channel=table.thread)
    assert listed.ephemeral
    assert "Plan: Ranging Rook" in listed.content and "(move 2)" in listed.content
    assert "Carol" not in listed.content and "@everyone" not in listed.content

    # Alice is a player: /export is public by default, and carries no notes.
    public = await export(club, club.alice, table)
    assert "Ranging Rook" not in public and "Carol" not in public
    private = await export(club, club.alice, table, public=False)
    lines = private.splitlines()
    assert lines[lines.index("手数----指手---------消費時間--") + 1] == "*Plan: Ranging Rook"
    assert lines[lines.index("   2 ３四歩(33)") + 1] == "*He opened the *bishop* @everyone"
    assert "Carol" not in private
    assert [m.usi() for m in read_record(private).game.moves] == ["7g7f", "3c3d"]
    # Carol is a spectator: her export is private by default and carries her notes only.
    carol = await export(club, club.carol, table)
    assert "*Carol's study" in carol and "Ranging Rook" not in carol
    carol_public = await export(club, club.carol, table, public=True)
    assert "Carol's study" not in carol_public

    # Deleting: someone else's number is refused as if it did not exist.
    [alice_first] = [n for n in await club.service.notes.of(table.game_id, club.alice.user.id)][:1]
    refused = await club.fake.slash(
        "notes", {"delete": str(alice_first.id)}, user=club.carol, channel=table.thread
    )
    assert refused.ephemeral and f"no note number {alice_first.id}" in refused.content
    deleted = await club.fake.slash(
        "notes", {"delete": str(alice_first.id)}, user=club.alice, channel=table.thread
    )
    assert "Deleted 1 note." in deleted.content and "Ranging Rook" not in deleted.content
    await club.restart()
    again = await club.fake.slash("notes", {}, user=club.alice, channel=table.thread)
    assert "bishop" in again.content and "Ranging Rook" not in again.content


async def test_notes_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    saved = await note(club, club.carol, "四間飛車の研究", table)
    listed = await club.fake.slash("notes", {}, user=club.carol, channel=table.thread)
    empty = await club.fake.slash("notes", {}, user=club.bob, channel=table.thread)
    refused = await club.fake.slash("notes", {"delete": "999"}, user=club.bob, channel=table.thread)
    assert "メモ" in saved.content and "四間飛車の研究" in listed.content
    assert refused.ephemeral and "999" in refused.content
    assert_japanese(saved, listed, empty, refused)
    private = await export(club, club.carol, table)
    assert "*四間飛車の研究" in private
