"""The opening and castle classifier (`rules.openings`) and its table (`data/openings.toml`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import Color, Game, Position
from rules.notation.files import read_record
from rules.openings import (
    TableError,
    classify,
    classify_game,
    default_table,
    parse_table,
)
from rules.openings.agreement import agreement_of

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
LABELLED = RECORDS.parent / "openings"
SENTE, GOTE = Color.SENTE, Color.GOTE


def _named(moves: str) -> dict[Color, dict[str, int]]:
    openings = classify_game(Game(moves=moves.split()))
    found: dict[Color, dict[str, int]] = {SENTE: {}, GOTE: {}}
    for naming in openings.namings:
        found[naming.color][naming.name.ja] = naming.ply
    return found


# Hand-made openings: (moves in USI, side, name, ply at which it becomes clear).
HAND_MADE = [
    ("7g7f 3c3d 2h6h", SENTE, "四間飛車", 3),
    ("7g7f 3c3d 2h6h", SENTE, "振り飛車", 3),
    ("7g7f 3c3d 2h5h", SENTE, "中飛車", 3),
    ("7g7f 3c3d 7f7e 8c8d 2h7h", SENTE, "三間飛車", 5),
    ("7g7f 3c3d 7f7e 8c8d 2h7h", SENTE, "早石田", 5),
    ("7g7f 3c3d 7f7e 8c8d 2h7h 6a5b 7h7f", SENTE, "石田流", 7),
    ("7g7f 3c3d 2g2f 4c4d 2f2e 2b3c", None, "", 0),
    ("7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 5g5f 8b2b", GOTE, "向かい飛車", 8),
    ("7g7f 3c3d 2g2f 5c5d 2f2e 8b5b", GOTE, "ゴキゲン中飛車", 6),
    ("7g7f 3c3d 2g2f 5c5d 2f2e 8b5b 8h2b+ 3a2b", GOTE, "角交換振り飛車", 8),
    ("2g2f 8c8d 2f2e 8d8e", SENTE, "相掛かり", 4),
    ("2g2f 8c8d 2f2e 8d8e", GOTE, "相掛かり", 4),
    (
        "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d",
        SENTE,
        "横歩取り",
        15,
    ),
    (
        "7g7f 8c8d 2g2f 3c3d 2f2e 8d8e 8h7g 4a3b 7i8h 7a6b 5i6h 2b7g+ 8h7g 3a2b 3i3h 2b3c",
        GOTE,
        "角換わり",
        16,
    ),
    ("7g7f 3c3d 2h6h 8b4b", SENTE, "相振り飛車", 4),
    ("7g7f 3c3d 2h6h 8b4b", GOTE, "相振り飛車", 4),
]


@pytest.mark.parametrize(("moves", "color", "name", "ply"), HAND_MADE)
def test_hand_made_openings(moves: str, color: Color | None, name: str, ply: int) -> None:
    found = _named(moves)
    if color is None:
        assert found == {SENTE: {}, GOTE: {}}, "an ordinary static start names nothing yet"
        return
    assert found[color].get(name) == ply, found


def test_a_rook_still_home_at_ply_30_is_static_and_the_game_double_static() -> None:
    game = read_record((LABELLED / "矢倉棒銀.kif").read_text(encoding="utf-8")).game
    before = classify(game.start, game.moves[:29])
    assert "static_rook" not in before.ids(SENTE) | before.ids(GOTE)
    after = classify(game.start, game.moves[:31])
    for color in Color:
        assert {"static_rook", "double_static_rook", "yagura"} <= after.ids(color)
    name = after.game_name()
    assert name is not None and name.ja == "矢倉"


def test_bishops_exchanged_before_a_rook_ranges_are_not_bishop_exchange() -> None:
    moves = "7g7f 3c3d 8h2b+ 3a2b 7i8h 2b3c 5i6h 8b2b 6i7h 5a6b 3i4h 6b7b 2g2f 7b8b 6h7i 7a7b"
    found = _named(moves)
    assert found[GOTE]["向かい飛車"] == 8 and found[GOTE]["角交換振り飛車"] == 8
    assert "角換わり" not in found[SENTE] | found[GOTE]


def test_handicap_games_are_left_unnamed() -> None:
    start = Position.initial("bishop")
    game = Game(start, ["3a4b", "7g7f", "8b5b"])
    assert classify_game(game).namings == ()


def test_naming_a_prefix_keeps_every_earlier_naming() -> None:
    """What became clear at a ply depends on the moves up to it only, so the bot can name
    the game after each move and announce what is new at that move."""
    record = read_record((LABELLED / "銀冠.kif").read_text(encoding="utf-8"))
    whole = classify_game(record.game)
    for ply in range(0, len(record.game.moves) + 1, 7):
        prefix = classify(record.game.start, record.game.moves[:ply])
        assert prefix.namings == tuple(n for n in whole.namings if n.ply <= ply)


def _labelled() -> list[tuple[str, Game, dict[str, str]]]:
    found = []
    for path in sorted(LABELLED.glob("*.kif")):
        record = read_record(path.read_text(encoding="utf-8"))
        found.append((path.name, record.game, dict(record.headers)))
    return found


#: Labels the table disagrees with on purpose, and why.
KNOWN_DISAGREEMENTS = {
    # bioshogi calls a central rook that exchanges bishops and recaptures with its silver
    # 角換わり as well; Japanese players keep 角換わり for two static rooks (this side is
    # named 中飛車 and 角交換振り飛車, as the record also says).
    "角換わり.kif: sente 角換わり",
}


def test_agreement_with_labelled_records_per_family() -> None:
    """Every family the table names agrees with at least 90 % of its labels in the
    labelled records (bench/bench_openings.py prints the whole table)."""
    agreement = agreement_of(_labelled(), known=KNOWN_DISAGREEMENTS)
    assert set(agreement.misses) >= KNOWN_DISAGREEMENTS, "a known disagreement went away"
    assert len(agreement.rows()) >= 25, "the labelled records cover most of the table"
    low = {family: agreement.rate(family) for family, _, _ in agreement.rows()}
    low = {family: rate for family, rate in low.items() if rate < 0.9}
    assert not low, (low, agreement.misses)
    # The game's own name too, not only either side's: the header's or one of its line.
    assert agreement.games >= 20
    assert agreement.games_agreed >= 0.9 * agreement.games, agreement.game_misses


@pytest.mark.parametrize(
    ("file", "game", "sente", "gote"),
    [
        # Its headers: 戦型：ゴキゲン中飛車, 先手の囲い：居飛車穴熊, 後手の囲い：片美濃囲い, 銀冠.
        ("bioshogi_sample.ki2u", "ゴキゲン中飛車", {"居飛車穴熊"}, {"片美濃囲い", "銀冠"}),
        # Ryuo-sen 2005 game 4: both sides exchange bishops and sit a silver on the fifth rank.
        ("kfjs_ryuou4.kifu", "角換わり", {"角換わり腰掛け銀"}, {"角換わり腰掛け銀"}),
        # Ginga-sen 2009: both sides build yagura.
        ("kfjs_20091203.ki2u", "矢倉", {"矢倉", "総矢倉"}, {"矢倉"}),
        # A handicap game and problems: nothing to name.
        ("kfjs_8mai.kifu", None, set(), set()),
        ("kfjs_9fu.kifu", None, set(), set()),
    ],
)
def test_the_records_in_tests_data_are_named(
    file: str, game: str | None, sente: set[str], gote: set[str]
) -> None:
    openings = classify_game(read_record((RECORDS / file).read_bytes()).game)
    name = openings.game_name()
    assert (name.ja if name is not None else None) == game
    for color, expected in ((SENTE, sente), (GOTE, gote)):
        shown = {n.ja for kind in ("opening", "castle") for n in openings.shown(color, kind)}
        assert expected <= shown, (color, shown)


def test_every_entry_has_both_names_and_a_known_parent() -> None:
    table = default_table()
    for name in table.names.values():
        assert name.ja and name.en and name.kind in ("opening", "castle")
        assert name.within is None or name.within in table.names


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[[entry]]\nid = "x"\nja = "a"\nen = "b"\nkind = "opening"\npieces = ["R50"]', "square"),
        ('[[entry]]\nid = "x"\nja = "a"\nen = "b"\nkind = "opening"\npieces = ["Q58"]', "piece"),
        ('[[entry]]\nid = "x"\nja = "a"\nen = "b"\nkind = "opening"\nsquares = []', "unknown key"),
        ('[[entry]]\nid = "x"\nja = "a"\nen = "b"\nkind = "castle"\nrequires = ["y"]', "no entry"),
        ('[[entry]]\nid = "x"\nja = "a"\nen = "b"\nkind = "style"', "kind"),
        ("[[entry]\n", "not TOML"),
    ],
)
def test_a_bad_table_is_one_clear_error(text: str, words: str) -> None:
    with pytest.raises(TableError, match=words):
        parse_table(text)
