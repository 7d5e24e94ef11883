"""Wording a shogi club reads in both languages: counts in the form their number takes
("1 blunder", "2 blunders"; Japanese has one form), Japanese lists set with 、, time
controls that do not say 持ち時間 twice, `/jishogi` that speaks of the game's own rule,
moves echoed in the Western notation the help teaches, and `/help` in sections."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.services import (
    Analysis,
    GameList,
    GameSummary,
    ImpasseReport,
    ImpasseRule,
    ListedStatus,
    Mark,
    MarkedMove,
    MoveText,
    Result,
    TimeControl,
)
from bot.services.play.snapshots import move_text
from bot.ui import text
from bot.ui.i18n import catalog, translate
from rules import Color, Game, Move, Outcome, Position, Termination
from rules.impasse import camp_count, evaluate_27
from rules.notation import parse_move
from tests.support.catalogs import LOCALE
from tests.support.snapshots import ALICE, BOB, DEADLINE, game_view

STAMP = int(DEADLINE.timestamp())

SEVEN_SIX = MoveText("7g7f", "７六歩", "P-7f")


def _analysis(mistakes: int, blunders: int) -> Analysis:
    """An analysis where sente made `mistakes` mistakes and `blunders` blunders."""
    marks = [MarkedMove(1, Color.SENTE, SEVEN_SIX, None, 150, Mark.MISTAKE)] * mistakes
    marks += [MarkedMove(1, Color.SENTE, SEVEN_SIX, None, 400, Mark.BLUNDER)] * blunders
    view = game_view(Game(moves=["7g7f"]), Outcome(Termination.RESIGNATION, Color.SENTE))
    return Analysis(game=view, scores=(0, -400), marks=tuple(marks), stored=True)


@pytest.mark.parametrize(
    ("lang", "counts", "line"),
    [
        ("en", (0, 1), "☗alice: 0 mistakes, 1 blunder"),
        ("en", (1, 0), "☗alice: 1 mistake, 0 blunders"),
        ("en", (2, 2), "☗alice: 2 mistakes, 2 blunders"),
        ("ja", (0, 1), "☗alice：悪手0、大悪手1"),
        ("ja", (1, 0), "☗alice：悪手1、大悪手0"),
        ("ja", (2, 2), "☗alice：悪手2、大悪手2"),
    ],
)
def test_an_analysis_counts_mistakes_and_blunders_in_their_form(
    lang: str, counts: tuple[int, int], line: str
) -> None:
    assert line in text.analysis_text(lang, _analysis(*counts)).splitlines()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["0 games", "1 game", "2 games", "0 rated games", "1 rated game", "2 rated games"]),
        (
            "ja",
            [
                "0局",
                "1局",
                "2局",
                "レーティング対局0局",
                "レーティング対局1局",
                "レーティング対局2局",
            ],
        ),
    ],
)
def test_a_number_of_games_takes_its_form(lang: str, said: list[str]) -> None:
    plain = [text.games_count(lang, n) for n in (0, 1, 2)]
    rated = [text.games_count(lang, n, rated=True) for n in (0, 1, 2)]
    assert plain + rated == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["Deleted 0 notes.", "Deleted 1 note.", "Deleted 2 notes."]),
        ("ja", ["メモを0件削除しました。", "メモを1件削除しました。", "メモを2件削除しました。"]),
    ],
)
def test_deleted_notes_are_counted_in_their_form(lang: str, said: list[str]) -> None:
    assert [text.notes_text(lang, 7, [], deleted=n).splitlines()[0] for n in (0, 1, 2)] == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["there are 0.", "there is 1.", "there are 2."]),
        ("ja", ["（今は0枚です）。", "（今は1枚です）。", "（今は2枚です）。"]),
    ],
)
def test_a_refusal_with_a_count_takes_its_form(lang: str, said: list[str]) -> None:
    """The rules' reason why an impasse cannot be declared yet, as the bot says it."""
    reasons = []
    for pieces in (0, 1, 2):
        camp = "+P" * pieces + str(9 - pieces) if pieces else "9"
        sfen = f"{camp}/9/4K4/9/9/9/9/9/8k b - 1"
        verdict = evaluate_27(Position.from_sfen(sfen), Color.SENTE)
        assert verdict.reason is not None
        reasons.append(text.say(lang, verdict.reason))
    assert [reason.endswith(end) for reason, end in zip(reasons, said, strict=True)] == [True] * 3


# ---------------------------------------------------------------- the wording items


def _listed(**changes: object) -> GameList:
    summary = GameSummary(
        id=4, opponent=BOB, your_color=Color.SENTE, your_turn=True, ply=5, deadline=DEADLINE,
        thread_id=None, guild_id=1,
    )  # fmt: skip
    return GameList([replace(summary, **changes)], more=0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("lang", "active", "finished"),
    [
        ("en", f"**your turn**, <t:{STAMP}:R>", f"after move 5, <t:{STAMP}:d>"),
        ("ja", f"**あなたの手番**、<t:{STAMP}:R>", f"5手で**勝ち**、<t:{STAMP}:d>"),
    ],
)
def test_a_list_of_games_is_set_with_its_languages_comma(
    lang: str, active: str, finished: str
) -> None:
    """「5手で勝ち, <t:…>」 read as English punctuation in a Japanese line."""
    shown = text.games_list_text(lang, ALICE, _listed(), ListedStatus.ACTIVE, own=True)
    assert shown.endswith(active)
    done = _listed(result=Result.WON, finished_at=DEADLINE, deadline=None)
    assert text.games_list_text(lang, ALICE, done, ListedStatus.FINISHED, own=True).endswith(
        finished
    )


@pytest.mark.parametrize(
    ("lang", "waiting"),
    [
        ("en", "**your turn**, its thread is being opened"),
        ("ja", "**あなたの手番**、スレッド準備中"),
    ],
)
def test_a_game_waiting_for_its_thread_is_listed_without_a_deadline(
    lang: str, waiting: str
) -> None:
    """An event's game whose thread is not open yet: its clock has not started, and the
    line says why it shows no deadline."""
    listed = _listed(clock_waits=True, deadline=None, ply=0)
    shown = text.games_list_text(lang, ALICE, listed, ListedStatus.ACTIVE, own=True)
    assert shown.endswith(waiting), shown


@pytest.mark.parametrize(
    ("typed", "english", "japanese"),
    [
        ("7d+1d", "Time: 7 days, then 1 day per move.", "持ち時間：7日、切れたら1手1日"),
        ("3d", "Time: 3 days per move.", "持ち時間：1手3日"),
        ("unlimited", "Time: unlimited.", "持ち時間：無制限"),
    ],
)
def test_a_games_time_says_its_label_once(typed: str, english: str, japanese: str) -> None:
    """「持ち時間：持ち時間7日…」 said it twice, and 「持ち時間なし」 read as "no time" for a
    game without a limit."""
    view = replace(game_view(), time_control=TimeControl.parse(typed))
    assert english in text.game_start_text("en", view).splitlines()
    lines = text.game_start_text("ja", view).splitlines()
    assert japanese in lines
    assert not any("持ち時間：持ち時間" in line or "なし" in line for line in lines)


def test_western_notation_has_one_japanese_name() -> None:
    """`/help` said 英語式 where the command descriptions say 西洋式."""
    help_text = "\n".join(body for _, body in text.help_sections("ja"))
    notation = (
        "Your move: Western (P-7f), Japanese (７六歩) or USI (7g7f); leave out to pick by tapping"
    )
    description = translate("ja", notation, "parameter_description")
    assert description is not None and "西洋式" in description
    assert "西洋式" in help_text
    for path in sorted(LOCALE.glob("*.po")):
        assert "英語式" not in path.read_text(encoding="utf-8"), path.name


def _nested(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"（": 1, "）": -1}.get(char, 0)
        if depth > 1:
            return True
    return False


def test_no_brackets_inside_brackets() -> None:
    """「持将棋の点数（27点法（入玉宣言））」: a rule's name went inside a bracket with its own."""
    for rule in ImpasseRule:
        assert not _nested(text.impasse_text("ja", _report(rule, KINGS_OUT)))
        assert "（" not in text.rule_name("ja", rule)
    ja = catalog("ja")
    assert ja is not None
    nested = [m.id for m in ja if isinstance(m.string, str) and _nested(m.string)]
    assert nested == []


KINGS_OUT = "4k4/9/9/9/9/9/9/9/4K4 b - 1"
SENTE_IN = "4K4/9/9/9/9/9/9/9/4k4 b - 1"


def _report(rule: ImpasseRule, sfen: str) -> ImpasseReport:
    position = Position.from_sfen(sfen)
    view = game_view(Game(sfen))
    counts = {color: camp_count(position, color) for color in Color}
    declaration = evaluate_27(position, Color.SENTE) if rule is ImpasseRule.DECLARATION_27 else None
    return ImpasseReport(
        game=view, counts=counts, required_27={Color.SENTE: 28, Color.GOTE: 27}, rule=rule,
        can_propose_count=False, can_declare=None, declaration=declaration,
    )  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_jishogi_shows_only_the_games_own_rule(lang: str) -> None:
    """Both rules' numbers were shown whatever rule the game uses."""
    declaration = text.impasse_text(lang, _report(ImpasseRule.DECLARATION_27, KINGS_OUT))
    count = text.impasse_text(lang, _report(ImpasseRule.COUNT_24, KINGS_OUT))
    assert "/28" in declaration and "/10" in declaration and "/24" not in declaration
    assert "/24" in count and "/10" not in count and "/28" not in count


def test_jishogi_reason_is_a_sentence_of_its_own() -> None:
    """ "…cannot declare yet: The king…": a capital after a colon."""
    said = text.impasse_text("en", _report(ImpasseRule.DECLARATION_27, KINGS_OUT))
    assert "alice cannot declare yet. The king has not entered the enemy camp." in said
    japanese = text.impasse_text("ja", _report(ImpasseRule.DECLARATION_27, KINGS_OUT))
    assert "aliceさんはまだ宣言できません。玉が敵陣に入っていません。" in japanese


@pytest.mark.parametrize(
    "sfen",
    [
        Position.initial().sfen(),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
        "4k4/9/4G4/9/9/9/9/9/4K4 b RBGSNLP2g 1",
    ],
)
def test_moves_are_echoed_in_the_western_notation_the_help_teaches(sfen: str) -> None:
    """ "７六歩 (P-76)" while `/help` teaches `P-7f`: the echo is what a member may type,
    and reads back as the same move."""
    position = Position.from_sfen(sfen)
    for move in position.legal_moves():
        western = move_text(position, move, None).western
        assert re.search(r"[1-9][a-i][+=]?$", western), western  # P-7f, not P-76
        assert parse_move(position, western) == move, western
    assert move_text(Position.initial(), Move.from_usi("7g7f"), None).western == "P-7f"
    assert "`P-7f`" in dict(text.help_sections("en"))["Writing moves"]
