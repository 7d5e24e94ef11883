"""A tournament's archive: the ZIP opened, every file read back by the bot's own readers
and by cshogi's (a reference, test-only), the same moves and result as the game, the event
in every record's `棋戦`, names that sort in the order played and that no name can break,
a name Shift_JIS cannot hold written as 〓 in the Shift_JIS files only, and parts that
stay within the upload limit."""

from __future__ import annotations

import doctest
import io
import pickle
import random
import time
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC
from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from bot.db import Database, open_database
from bot.services import GameService, PlayerRef, ServiceError
from bot.services.records import archive
from bot.services.records.archive import (
    ARCHIVE_KINDS,
    NAME_CHARS,
    ArchivedGame,
    archive_in_worker,
    archive_seconds,
    archived_game,
    packed,
    tournament_archive,
)
from bot.services.records.readers import READ_TIME_LIMIT, ReaderPool
from rules import Color, Game, Termination
from rules.notation import Record, read_record
from tests.notation.support import RECORDS
from tests.support.stall import LoopProbe

from .conftest import BOB, FakeClock, RecordingEvents, play_all, start_game

#: Unicode's direction controls: in a file name they can make it show as another name.
DIRECTIONS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LIMIT = 10 * 1024 * 1024  # discord.py's default upload limit
EVENT = "第1回 クラブ杯🏆"
OPENING = ["7g7f", "3c3d", "8h2b+", "3a2b"]


def long_games() -> list[Game]:
    """The real games of the test records (long professional games among them)."""
    games = []
    for path in sorted(RECORDS.iterdir()):
        if path.suffix in (".kifu", ".csa") and "9fu" not in path.name:
            games.append(read_record(path.read_bytes()).game)
    return games


def played(moves: int, seed: int) -> Game:
    """A game of `moves` random legal moves, ended by the side to move resigning."""
    rng = random.Random(seed)
    game = Game()
    for _ in range(moves):
        legal = sorted(game.position.legal_moves(), key=lambda move: move.usi())
        if not legal:
            break
        game.push(rng.choice(legal))
    if game.outcome is None:
        game.resign(game.position.turn)
    return game


def opened(data: bytes) -> zipfile.ZipFile:
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    return archive


def test_every_file_reads_back_with_the_games_moves_result_and_event(tmp_path: Path) -> None:
    games = [played(40 + 10 * i, i) for i in range(6)]
    entries = [
        ArchivedGame(
            1 + i // 3,
            1 + i % 3,
            Record(g, sente=f"S{i}", gote=f"G{i}", started="2026/11/01 10:00:00"),
        )
        for i, g in enumerate(games)
    ]
    (part,) = tournament_archive(EVENT, entries, limit=LIMIT)
    assert part.filename == "tournament.zip" and part.games == 6
    archive = opened(part.data)
    assert len(archive.namelist()) == 6 * len(ARCHIVE_KINDS)
    for index, game in enumerate(games):
        stem = f"R0{1 + index // 3}-B0{1 + index % 3}-1 ▲S{index} △G{index}"
        for kind in ARCHIVE_KINDS:
            data = archive.read(f"{kind}/{stem}.{kind}")
            if kind in ("kif", "ki2"):
                with pytest.raises(UnicodeDecodeError):
                    data.decode("utf-8")  # Shift_JIS, as Japanese software reads .kif
            back = read_record(data)
            assert back.game.moves == game.moves, (kind, index)
            assert back.game.outcome == game.outcome
            assert (back.sente, back.gote) == (f"S{index}", f"G{index}")
            shift_jis = kind in ("kif", "ki2")
            assert back.headers["棋戦"] == ("第1回 クラブ杯〓" if shift_jis else EVENT)
        # cshogi, as a reference reader of the KIF (both encodings) and CSA files.
        usi = [move.usi() for move in game.moves]
        for kind in ("kif", "kifu"):
            path = tmp_path / f"{index}.{kind}"
            path.write_bytes(archive.read(f"{kind}/{stem}.{kind}"))
            theirs = cshogi.KIF.Parser.parse_file(str(path))
            assert [cshogi.move_to_usi(m) for m in theirs.moves] == usi
            assert theirs.names == [f"S{index}", f"G{index}"]
        csa = cshogi.CSA.Parser.parse_str(archive.read(f"csa/{stem}.csa").decode())[0]
        assert [cshogi.move_to_usi(m) for m in csa.moves] == usi
        assert csa.var_info["EVENT"] == EVENT
        loser = game.outcome.loser if game.outcome else None
        assert csa.win == (cshogi.WHITE_WIN if loser is Color.SENTE else cshogi.BLACK_WIN)


def test_the_event_replaces_the_records_own_and_sits_in_kifu_for_windows_order() -> None:
    record = Record(
        played(10, 1),
        sente="A",
        gote="B",
        started="2026/11/01 10:00:00",
        headers={"終了日時": "2026/11/02 10:00:00", "棋戦": "old", "持ち時間": "3日"},
    )
    (part,) = tournament_archive("  Club\ncup  ", [ArchivedGame(1, 1, record)], limit=LIMIT)
    text = opened(part.data).read("kifu/R01-B01-1 ▲A △B.kifu").decode()
    lines = text.splitlines()
    assert lines[1:5] == [
        "開始日時：2026/11/01 10:00:00",
        "終了日時：2026/11/02 10:00:00",
        "棋戦：Club cup",
        "持ち時間：3日",
    ]
    assert record.headers["棋戦"] == "old"  # the caller's record is left as it was


def test_names_sort_in_the_order_played() -> None:
    game = played(6, 3)
    order = [(r, b, n) for r in (1, 2, 9, 10, 11) for b in (1, 2, 10) for n in (1, 2)]
    shuffled = order[:]
    random.Random(5).shuffle(shuffled)
    entries = [ArchivedGame(r, b, Record(game, sente="Z", gote="A"), n) for r, b, n in shuffled]
    (part,) = tournament_archive("Cup", entries, limit=LIMIT)
    names = sorted(n for n in opened(part.data).namelist() if n.startswith("csa/"))
    assert [name.split(" ")[0] for name in names] == [
        f"csa/R{r:02d}-B{b:02d}-{n}" for r, b, n in order
    ]


def test_a_name_shift_jis_cannot_hold_is_written_as_geta_in_the_shift_jis_files() -> None:
    record = Record(played(8, 2), sente="はなこ🌸", gote="José👨‍👩‍👧")
    (part,) = tournament_archive("Cup", [ArchivedGame(1, 1, record)], limit=LIMIT)
    archive = opened(part.data)
    stem = "R01-B01-1 ▲はなこ🌸 △José👨‍👩‍👧"
    for kind in ("kif", "ki2"):
        back = read_record(archive.read(f"{kind}/{stem}.{kind}"))
        assert (back.sente, back.gote) == ("はなこ〓", "Jos〓〓")
    for kind in ("kifu", "ki2u", "csa"):
        back = read_record(archive.read(f"{kind}/{stem}.{kind}"))
        assert (back.sente, back.gote) == ("はなこ🌸", "José👨‍👩‍👧")
    assert part.replaced == 2 * 3  # three characters in each of the two Shift_JIS files


@pytest.mark.parametrize(
    "name",
    [
        "../../etc/passwd",
        'a/b\\c:d*e?f"g<h>i|j',
        "\x00\x1f\n\t",
        "x" * 100_000,
        ".",
        "",
        "  ",
        "\u202egnp.exe",
        "\u2067\u200fa\u2069\u061c",
    ],
)
def test_no_name_breaks_out_of_its_folder_or_its_length(name: str) -> None:
    record = Record(played(4, 4), sente=name, gote="B")
    (part,) = tournament_archive(name or "x", [ArchivedGame(1, 1, record)], limit=LIMIT)
    archive = opened(part.data)
    for entry in archive.namelist():
        folder, _, file = entry.partition("/")
        assert folder in ARCHIVE_KINDS
        assert "/" not in file and "\\" not in file and not file.startswith(".")
        assert not any(ord(c) < 32 or c in DIRECTIONS for c in entry)
        assert len(file) <= len("R01-B01-1 ▲ △B.ki2u") + NAME_CHARS
        assert [m.usi() for m in read_record(archive.read(entry)).game.moves] == [
            m.usi() for m in record.game.moves
        ]


def test_a_large_tournament_is_split_into_parts_within_the_limit() -> None:
    sources = long_games()
    entries = [
        ArchivedGame(
            1 + i // 10, 1 + i % 10, Record(sources[i % len(sources)], sente=f"P{i}", gote=f"Q{i}")
        )
        for i in range(60)
    ]
    (whole,) = tournament_archive("Cup", entries, limit=LIMIT)
    limit = len(whole.data) // 3
    parts = tournament_archive("Cup", entries, limit=limit)
    assert len(parts) >= 3
    assert [p.filename for p in parts] == [
        f"tournament-{i}-of-{len(parts)}.zip" for i in range(1, len(parts) + 1)
    ]
    seen = []
    for part in parts:
        assert len(part.data) <= limit
        names = sorted(n for n in opened(part.data).namelist() if n.startswith("kifu/"))
        assert len(names) == part.games
        seen += names
    assert seen == sorted(n for n in opened(whole.data).namelist() if n.startswith("kifu/"))
    # A part is as full as it can be: the next part's first game would not have fitted.
    assert sum(p.games for p in parts) == 60
    exact = tournament_archive("Cup", entries[:1], limit=LIMIT)[0]
    assert tournament_archive("Cup", entries[:1], limit=len(exact.data))[0].data == exact.data


def test_a_leagues_archive_is_given_the_time_its_games_take() -> None:
    """The worker's time limit grows with the games: a 30-player double round robin's 870
    games take seconds to write on a busy machine, past the limit of a member's read, and
    an archive given up is a final post without its records."""
    sources = long_games()
    entries = [
        ArchivedGame(1 + i // 10, 1 + i % 10, Record(sources[i % len(sources)], sente="P"))
        for i in range(30)
    ]
    started = time.perf_counter()
    tournament_archive("Cup", entries, limit=LIMIT)
    per_game = (time.perf_counter() - started) / len(entries)
    for games in (1, 870, 9_000):
        assert archive_seconds(games) >= READ_TIME_LIMIT
        assert archive_seconds(games) >= 3 * per_game * games


async def test_a_leagues_games_go_to_the_worker_without_holding_the_loop() -> None:
    """870 real games (megabytes once pickled) are handed to the worker while the loop
    goes on answering: packing them on it held every server's moves for a few tenths of a
    second."""
    sources = long_games()
    entries = [
        ArchivedGame(
            1 + i // 15,
            1 + i % 15,
            Record(pickle.loads(pickle.dumps(sources[i % len(sources)])), sente=f"P{i}"),
        )
        for i in range(870)
    ]
    games = [packed(entry) for entry in entries]  # as the Discord layer reads them
    pool = ReaderPool(processes=1)
    try:
        async with LoopProbe() as probe:
            parts = await pool.run(
                archive_in_worker, "Cup", games, LIMIT, time_limit=archive_seconds(870)
            )
        assert sum(part.games for part in parts) == 870
        assert probe.worst < 0.1, probe.report()
    finally:
        await pool.close()


def test_a_game_alone_over_the_limit_and_no_game_are_refused() -> None:
    entries = [ArchivedGame(1, 1, Record(played(60, 6), sente="A", gote="B"))]
    (part,) = tournament_archive("Cup", entries, limit=LIMIT)
    with pytest.raises(ServiceError) as refused:
        tournament_archive("Cup", entries, limit=len(part.data) - 1)
    assert "upload limit" in str(refused.value.sentence)
    with pytest.raises(ServiceError):
        tournament_archive("Cup", [], limit=LIMIT)


def test_two_games_with_the_same_place_are_a_callers_mistake() -> None:
    record = Record(played(4, 7), sente="A", gote="B")
    with pytest.raises(ValueError, match="same round"):
        tournament_archive(
            "Cup", [ArchivedGame(1, 1, record), ArchivedGame(1, 1, record)], limit=LIMIT
        )


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    database: Database = await open_database(tmp_path / "shogi.db")
    yield GameService(database, clock=FakeClock(), events=RecordingEvents(), rng=random.Random(7))
    await database.close()


async def test_stored_games_are_archived_with_their_own_headers(service: GameService) -> None:
    hanako = PlayerRef(5005, "はなこ🌸")
    first = await start_game(service)
    await play_all(service, first.id, OPENING)
    await service.endings.resign(first.id, BOB.user_id)
    second = await start_game(service, challenger=hanako)
    await play_all(service, second.id, OPENING[:2])
    await service.endings.resign(second.id, hanako.user_id)
    snapshots = [await service.store.current(game.id) for game in (first, second)]
    entries = [
        archived_game(snapshot, round=1, board=board, zone=UTC)
        for board, snapshot in enumerate(snapshots, start=1)
    ]
    (part,) = tournament_archive(EVENT, entries, limit=LIMIT)
    archive = opened(part.data)
    alice = read_record(archive.read("kif/R01-B01-1 ▲Alice △Bob.kif"))
    assert [m.usi() for m in alice.game.moves] == OPENING
    assert alice.game.outcome is not None
    assert alice.game.outcome.termination is Termination.RESIGNATION
    assert {"開始日時", "終了日時", "棋戦", "持ち時間"} <= set(alice.headers)
    assert alice.started is not None and alice.headers["棋戦"] == "第1回 クラブ杯〓"
    theirs = read_record(archive.read("kifu/R01-B02-1 ▲はなこ🌸 △Bob.kifu"))
    assert theirs.sente == "はなこ🌸" and theirs.game.outcome is not None
    assert theirs.game.outcome.winner is Color.GOTE
    # In .kif and .ki2: the event's emoji in both games, the name's in the second.
    assert part.replaced == 2 * (1 + 2)


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(archive)
    assert result.failed == 0 and result.attempted > 0
