"""Exported record files as Japanese software reads them: every `.kif` and `.ki2` the
service exports is written to a real file and read by cshogi's own readers (which take
`.kif` and `.ki2` as Shift_JIS and `.kifu` as UTF-8), and by ours from the same bytes;
the headers cshogi reads (names, start date, handicap, result) are checked against the
game. cshogi reads no board diagram and knows no time-out result: a game from a set-up
position is checked on its moves by the square (KIF), and a time-out on its moves.
cshogi 1.1.0's KI2 reader goes back to the wrong place of a line after its second move,
so a `.ki2` is given to it with one move a line, decoded from the file as its
`parse_file` decodes it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import cshogi
import cshogi.KI2
import cshogi.KIF
import pytest

from bot.services import ExportFile, GameService, GameSnapshot, PlayerRef
from rules import Color, Outcome, Termination
from rules.notation import read_record, shift_jis_text

from .conftest import FakeClock, play_all, start_game
from .test_impasse import COUNT_SFEN, DECLARE_SFEN

TOKYO = ZoneInfo("Asia/Tokyo")
HANAKO = PlayerRef(5005, "はなこ🌸")  # an emoji Shift_JIS lacks
JOSE = PlayerRef(6006, "José 〜 Ω①")  # é is outside cp932; 〜 is there as ～; Ω and ① as they are
EVENT = "将棋クラブ👑"
SITE = "Discord (ShogiBot)"
FOOLS_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]
KINGS_SHUFFLE = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3  # sennichite at move 12
# cshogi's result codes: who won, or a draw; None where it reads no result.
CSHOGI_WINNER = {Color.SENTE: cshogi.BLACK_WIN, Color.GOTE: cshogi.WHITE_WIN, None: cshogi.DRAW}

Ending = Callable[[GameService, FakeClock], Awaitable[GameSnapshot]]


async def _resigned(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(service, challenger=HANAKO, opponent=JOSE)
    await play_all(service, game.id, ["7g7f", "3c3d", "8h2b+", "3a2b"])
    await service.endings.resign(game.id, JOSE.user_id)
    return await service.games.get(game.id)


async def _handicap(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(
        service, challenger=HANAKO, opponent=JOSE, color="gote", handicap="two_piece"
    )
    await play_all(service, game.id, ["5a4b", "7g7f", "4b3b"])
    await service.endings.resign(game.id, JOSE.user_id)  # 下手 resigns
    return await service.games.get(game.id)


async def _mated(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(service, challenger=HANAKO, opponent=JOSE)
    await play_all(service, game.id, FOOLS_MATE)
    return await service.games.get(game.id)


async def _timed_out(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(service, challenger=HANAKO, opponent=JOSE, time_control="7d+1d")
    await play_all(service, game.id, ["7g7f", "3c3d"])
    clock.advance(days=9)
    return await service.games.get(game.id)  # ended on time as it is read


async def _repeated(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(service, challenger=HANAKO, opponent=JOSE)
    await play_all(service, game.id, KINGS_SHUFFLE)
    return await service.games.get(game.id)


async def _declared(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(service, challenger=HANAKO, opponent=JOSE, start_sfen=DECLARE_SFEN)
    await play_all(service, game.id, ["8e8b", "2e2f"])
    return await service.impasse.declare(game.id, HANAKO.user_id)


async def _counted(service: GameService, clock: FakeClock) -> GameSnapshot:
    game = await start_game(
        service, challenger=HANAKO, opponent=JOSE, start_sfen=COUNT_SFEN, impasse_rule="24"
    )
    await service.impasse.propose_count(game.id, HANAKO.user_id)
    return await service.impasse.accept_count(game.id, JOSE.user_id)


@dataclass(frozen=True)
class Case:
    ending: Ending
    termination: Termination
    handicap_sfen: str | None = cshogi.STARTING_SFEN  # None: a board diagram
    cshogi_knows_result: bool = True


CASES = {
    "resignation": Case(_resigned, Termination.RESIGNATION),
    "handicap": Case(
        _handicap,
        Termination.RESIGNATION,
        cshogi.KIF.Parser.HANDYCAP_SFENS["二枚落ち"],
    ),
    "mate": Case(_mated, Termination.CHECKMATE),
    "time-out": Case(_timed_out, Termination.TIME, cshogi_knows_result=False),
    "sennichite": Case(_repeated, Termination.SENNICHITE),
    "declaration": Case(_declared, Termination.IMPASSE_27, None),
    "count": Case(_counted, Termination.IMPASSE_24, None),
}


async def _export(service: GameService, game: GameSnapshot, kind: str) -> ExportFile:
    return await service.exports.file(game.id, kind, zone=TOKYO, event=EVENT, site=SITE)


def _held(name: str) -> str:
    return shift_jis_text(name)[0]


def _local(moment: datetime) -> datetime:
    """A moment as a record's header gives it: in Tokyo, without a zone."""
    return moment.astimezone(TOKYO).replace(tzinfo=None)


def _cshogi_reads(path: Path, game: GameSnapshot, case: Case, names: tuple[str, str]) -> None:
    """cshogi's reader of `path`'s kind agrees with the game on what it reads."""
    if path.suffix in (".kif", ".kifu"):
        parsed = cshogi.KIF.Parser.parse_file(str(path))
    else:
        text = path.read_bytes().decode("cp932" if path.suffix == ".ki2" else "utf-8")
        parsed = cshogi.KI2.Parser.parse_str(re.sub(" (?=[▲△])", "\n", text))
    assert parsed.names == list(names)
    assert parsed.starttime == _local(game.row.started_at)
    assert [cshogi.move_to_usi(move) for move in parsed.moves] == [
        move.usi() for move in game.game.moves
    ]
    if case.handicap_sfen is not None:
        assert parsed.sfen == case.handicap_sfen
    outcome = game.game.outcome
    assert outcome is not None
    if case.cshogi_knows_result:
        assert parsed.win == CSHOGI_WINNER[outcome.winner]
    else:
        assert parsed.win is None
    assert game.row.finished_at is not None
    finished = _local(game.row.finished_at).strftime("%Y/%m/%d %H:%M:%S")
    assert parsed.var_info["終了日時"] == finished
    event = _held(EVENT) if path.suffix in (".kif", ".ki2") else EVENT
    assert parsed.var_info["棋戦"] == event
    assert parsed.var_info["場所"] == SITE


@pytest.mark.parametrize("name", list(CASES))
async def test_exported_records_are_read_by_cshogi_and_by_us(
    service: GameService, clock: FakeClock, tmp_path: Path, name: str
) -> None:
    case = CASES[name]
    game = await case.ending(service, clock)
    assert game.game.outcome is not None
    assert game.game.outcome.termination is case.termination
    sente, gote = game.player(Color.SENTE).name, game.player(Color.GOTE).name
    for kind in ("kif", "ki2", "kifu", "ki2u"):
        exported = await _export(service, game, kind)
        path = tmp_path / exported.filename
        path.write_bytes(exported.data)
        shift_jis = kind in ("kif", "ki2")
        names = (_held(sente), _held(gote)) if shift_jis else (sente, gote)
        assert exported.replaced == (3 if shift_jis else 0), kind  # 🌸, é and 👑
        if kind in ("kif", "kifu") or case.handicap_sfen is not None:  # KI2 needs 手合割
            _cshogi_reads(path, game, case, names)
        back = read_record(path.read_bytes())
        assert (back.sente, back.gote) == names, kind
        assert back.game.moves == game.game.moves, kind
        assert back.game.start == game.game.start, kind
        assert back.game.outcome == game.game.outcome, kind
        assert back.started == _local(game.row.started_at).strftime("%Y/%m/%d %H:%M:%S")


async def test_shift_jis_files_are_cp932_with_crlf_and_say_so(
    service: GameService, clock: FakeClock
) -> None:
    game = await _resigned(service, clock)
    kif = await _export(service, game, "kif")
    assert kif.encoding == "cp932" and kif.filename.endswith(".kif")
    assert kif.data.startswith(b"#KIF version=2.0 encoding=Shift_JIS\r\n")
    assert b"\n" not in kif.data.replace(b"\r\n", b"")  # every line ends with CR LF
    text = kif.data.decode("cp932")
    assert "先手：はなこ〓\r\n" in text and "後手：Jos〓 ～ Ω①\r\n" in text
    ki2 = await _export(service, game, "ki2")
    assert ki2.data.decode("cp932").startswith("開始日時：2025/03/01 21:00:00\r\n")
    kifu = await _export(service, game, "kifu")
    assert kifu.filename.endswith(".kifu") and kifu.replaced == 0
    assert kifu.data.decode("utf-8").startswith("#KIF version=2.0 encoding=UTF-8\n")
    assert "先手：はなこ🌸\n" in kifu.content
    csa = await _export(service, game, "csa")
    assert csa.data.decode("utf-8").startswith("'CSA encoding=UTF-8\nV2.2\nN+はなこ🌸\n")
    assert "$EVENT:将棋クラブ👑\n$SITE:Discord (ShogiBot)\n" in csa.content
    assert "$TIME_LIMIT" not in csa.content  # days do not fit CSA's hours:minutes+seconds


async def test_headers_are_in_the_servers_zone_with_the_time_control(
    service: GameService, clock: FakeClock
) -> None:
    """Started at 12:00 UTC, ended five hours later: 21:00 and 02:00 the next day in Tokyo,
    where the dates differ from UTC's."""
    game = await start_game(service, challenger=HANAKO, opponent=JOSE, time_control="7d+1d")
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    during = await _export(service, game, "kifu")
    assert "開始日時：2025/03/01 21:00:00\n" in during.content
    assert "終了日時" not in during.content  # not over yet
    clock.advance(hours=5)
    await service.endings.resign(game.id, JOSE.user_id)
    kif = (await _export(service, game, "kifu")).content
    head = kif.split("手合割")[0].splitlines()
    assert head == [
        "#KIF version=2.0 encoding=UTF-8",
        "開始日時：2025/03/01 21:00:00",
        "終了日時：2025/03/02 02:00:00",
        "棋戦：将棋クラブ👑",
        "場所：Discord (ShogiBot)",
        "持ち時間：7日＋1手1日",
    ]
    assert kif.endswith("   4 投了\nまで3手で先手の勝ち\n")
    utc = (await service.exports.file(game.id, "kifu")).content  # no zone given: UTC
    assert "開始日時：2025/03/01 12:00:00\n終了日時：2025/03/01 17:00:00\n" in utc


@pytest.mark.parametrize(
    ("ending", "closing"),
    [
        (_resigned, "   5 投了\nまで4手で先手の勝ち\n"),
        (_mated, "   8 詰み\nまで7手で先手の勝ち\n"),
        (_timed_out, "   3 切れ負け\nまで2手で時間切れにより後手の勝ち\n"),
        (_repeated, "  13 千日手\nまで12手で千日手\n"),
        (_declared, "   3 入玉勝ち\nまで2手で先手の入玉勝ち\n"),
        (_handicap, "   4 投了\nまで3手で上手の勝ち\n"),
    ],
)
async def test_results_are_written_the_kif_way(
    service: GameService, clock: FakeClock, ending: Ending, closing: str
) -> None:
    game = await ending(service, clock)
    assert (await _export(service, game, "kifu")).content.endswith(closing)


async def test_a_time_out_is_read_back_as_one(service: GameService, clock: FakeClock) -> None:
    game = await _timed_out(service, clock)
    for kind in ("kif", "ki2", "csa"):
        back = read_record((await _export(service, game, kind)).data)
        assert back.game.outcome == Outcome(Termination.TIME, Color.GOTE), kind
