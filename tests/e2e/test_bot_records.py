"""Records as Japanese software reads them, through the real bot and the fake Discord:
`/export` gives a Shift_JIS `.kif` (read by cshogi from a real file) with its headers in
the server's time zone, says in the caption what Shift_JIS could not hold, offers the
same record in UTF-8 as `.kifu`, and `/board` reads the Shift_JIS file back."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from zoneinfo import ZoneInfo

import cshogi.KIF

from rules.notation import read_record, record_time
from tests.fakediscord import UserFile
from tests.support.club import Club
from tests.support.japanese import assert_japanese

TOKYO = ZoneInfo("Asia/Tokyo")


async def _finished_game(club: Club) -> int:
    table = await club.new_game()
    first, second = club.alice, club.bob
    await club.play(table, [(first, "７六歩"), (second, "３四歩"), (first, "２二角成")])
    await club.resign(table, second)
    await club.fake.wait_for(lambda: table.thread.archived, what="the ending")
    return table.game_id


async def test_a_japanese_server_exports_shift_jis_read_by_cshogi(
    japanese_club: Club, tmp_path: Path
) -> None:
    club = japanese_club
    game_id = await _finished_game(club)
    game = await club.game(game_id)
    exported = await club.fake.slash(
        "export", {"game": str(game_id)}, user=club.alice, channel=club.channel
    )
    [record] = exported.files
    assert record.filename == f"game-{game_id}.kif"
    assert "〓に置き換えています" in exported.content and "KIFU（UTF-8）" in exported.content
    assert_japanese(exported)
    text = record.data.decode("cp932")
    assert club.bot is not None and club.bot.user is not None
    started = record_time(game.row.started_at.astimezone(TOKYO))
    assert game.row.finished_at is not None
    ended = record_time(game.row.finished_at.astimezone(TOKYO))
    assert text.startswith(
        "#KIF version=2.0 encoding=Shift_JIS\r\n"
        f"開始日時：{started}\r\n終了日時：{ended}\r\n棋戦：Shogi Club\r\n"
        f"場所：Discord ({club.bot.user.name})\r\n持ち時間：1手3日\r\n手合割：平手\r\n"
        "先手：山田太郎\r\n後手：はなこ〓\r\n"
    )
    assert text.endswith("   4 投了\r\nまで3手で先手の勝ち\r\n")
    path = tmp_path / record.filename
    path.write_bytes(record.data)
    parsed = cshogi.KIF.Parser.parse_file(str(path))
    assert parsed.names == ["山田太郎", "はなこ〓"]
    assert parsed.starttime == game.row.started_at.astimezone(TOKYO).replace(tzinfo=None)
    assert parsed.win == cshogi.BLACK_WIN and len(parsed.moves) == 3

    shown = await club.fake.slash(
        "board", {"record": UserFile(record.filename, record.data)}, user=club.carol,
        channel=club.channel,
    )  # fmt: skip
    assert shown.ephemeral and "はなこ〓" in shown.content and shown.files

    utf8 = await club.fake.slash(
        "export", {"game": str(game_id), "format": "kifu"}, user=club.alice, channel=club.channel
    )
    [kifu] = utf8.files
    assert kifu.filename == f"game-{game_id}.kifu" and "〓" not in utf8.content
    assert read_record(kifu.data).gote == "はなこ🌸"
    assert read_record(record.data).game.moves == read_record(kifu.data).game.moves


async def test_an_english_server_writes_its_dates_in_utc(club: Club) -> None:
    game_id = await _finished_game(club)
    game = await club.game(game_id)
    exported = await club.fake.slash(
        "export", {"game": str(game_id)}, user=club.alice, channel=club.channel
    )
    [record] = exported.files
    text = record.data.decode("cp932")
    assert f"開始日時：{record_time(game.row.started_at.astimezone(UTC))}\r\n" in text
    assert "先手：alice\r\n後手：bob\r\n" in text
    assert "Shift_JIS" not in exported.content  # nothing was replaced
    ki2 = await club.fake.slash(
        "export", {"game": str(game_id), "format": "ki2"}, user=club.alice, channel=club.channel
    )
    [written] = ki2.files
    assert written.filename.endswith(".ki2")
    assert written.data.decode("cp932").endswith(
        "▲７六歩 △３四歩 ▲２二角成\r\nまで3手で先手の勝ち\r\n"
    )


async def test_a_zone_chosen_with_timezone_dates_the_records(club: Club) -> None:
    """An English server that chose Asia/Tokyo: its records are dated in Tokyo, not UTC."""
    club.make_manager(club.carol)
    chosen = await club.fake.slash(
        "timezone", {"zone": "Asia/Tokyo"}, user=club.carol, channel=club.channel
    )
    assert "now dated in `Asia/Tokyo`" in chosen.content
    game_id = await _finished_game(club)
    game = await club.game(game_id)
    exported = await club.fake.slash(
        "export", {"game": str(game_id), "format": "kifu"}, user=club.alice, channel=club.channel
    )
    [record] = exported.files
    text = record.data.decode("utf-8")
    started = game.row.started_at.astimezone(TOKYO)
    assert started.utcoffset() != UTC.utcoffset(None)
    assert f"開始日時：{record_time(started)}\n" in text
