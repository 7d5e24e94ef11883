"""Message texts: what players read, with their names made inert."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.cogs.records.exports import ANIMATION
from bot.services import (
    FORMATS,
    PRESETS,
    GameList,
    GameSnapshot,
    GameSummary,
    ImpasseRule,
    ListedStatus,
    MoveText,
    Notifications,
    PlayedMove,
    PlayerRef,
    Preferences,
    QuietHours,
    Result,
    TimeControl,
    VacationStatus,
)
from bot.services.club.challenge import COLOR_WISHES
from bot.services.play.finding import LISTED
from bot.ui import text as wording
from bot.ui.notify import game_link
from rules import Color, Game, Handicap, Outcome, Sentence, Termination
from tests.support.snapshots import ALICE, BOB, DEADLINE, game_view


def test_names_cannot_format_or_ping() -> None:
    text = wording.board_caption("en", game_view())
    assert "@everyone" not in text.replace("@\u200beveryone", "")
    assert "**" not in text


def test_move_text_echoes_both_notations_and_mentions_next_player() -> None:
    view = game_view()
    result = PlayedMove(view, MoveText("7g7f", "７六歩", "P-7f"), ALICE, False, None, BOB, DEADLINE)
    text = wording.move_text("en", result)
    assert "☗７六歩 (P-7f)" in text
    assert f"<@{BOB.user_id}> to move" in text
    assert f"<t:{int(DEADLINE.timestamp())}:R>" in text
    assert "Check" not in text


def test_move_text_says_check_and_the_end() -> None:
    view = game_view()
    checking = PlayedMove(view, MoveText("a", "b", "c"), ALICE, True, None, BOB, DEADLINE)
    assert "Check!" in wording.move_text("en", checking)
    assert "王手！" in wording.move_text("ja", checking)
    mate = Outcome(Termination.CHECKMATE, Color.SENTE)
    ended = PlayedMove(
        game_view(outcome=mate), MoveText("a", "b", "c"), ALICE, True, mate, None, None
    )
    text = wording.move_text("en", ended)
    assert "Checkmate" in text and "alice wins" in text and "/export" in text
    japanese = wording.move_text("ja", ended)
    assert "まで1手で☗alice の勝ち".replace(" ", "") in japanese and "/棋譜" in japanese


def test_every_outcome_has_a_sentence() -> None:
    for termination in Termination:
        for winner in (Color.SENTE, Color.GOTE, None):
            outcome = Outcome(termination, winner)
            view = game_view(outcome=outcome)
            text = wording.outcome_text("en", outcome, view)
            assert text.endswith("Get the record with `/export`.")
            japanese = wording.outcome_text("ja", outcome, view)
            assert japanese.endswith("。棋譜は `/棋譜` で取り出せます。")  # no space between
            if winner is not None and termination not in (
                Termination.SENNICHITE,
                Termination.ABORT,
            ):
                assert "wins" in text or "declared" in text
                assert japanese.startswith("まで1手で") and "勝ち" in japanese


def test_thread_name_fits() -> None:
    long = PlayerRef(5, "x" * 120)
    view = game_view()
    view = GameSnapshot(
        **{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "sente": long}
    )
    assert len(wording.thread_name("en", view)) <= 100
    assert wording.thread_name("en", game_view()).startswith("#7 ☗alice vs ☖")
    assert wording.thread_name("ja", game_view()).startswith("#7 ☗alice 対 ☖")


@pytest.mark.parametrize(
    ("outcome", "english", "japanese"),
    [
        (Outcome(Termination.CHECKMATE, Color.SENTE), "☗ wins", "☗の勝ち"),
        (Outcome(Termination.RESIGNATION, Color.GOTE), "☖ wins", "☖の勝ち"),
        (Outcome(Termination.SENNICHITE, None), "draw", "引き分け"),
        (Outcome(Termination.ABORT, None), "aborted", "中止"),
    ],
)
def test_a_finished_games_thread_name_ends_with_its_result(
    outcome: Outcome, english: str, japanese: str
) -> None:
    view = game_view(outcome=outcome)
    assert wording.thread_name("en", view) == f"#7 ☗alice vs ☖{BOB.name} · {english}"
    assert wording.thread_name("ja", view) == f"#7 ☗alice 対 ☖{BOB.name} · {japanese}"


def test_long_names_are_shortened_so_the_number_and_result_show() -> None:
    view = game_view(outcome=Outcome(Termination.CHECKMATE, Color.GOTE))
    fields = {f: getattr(view, f) for f in view.__dataclass_fields__}
    long = GameSnapshot(
        **{**fields, "sente": PlayerRef(5, "s" * 60), "gote": PlayerRef(6, "g" * 60)}
    )
    name = wording.thread_name("en", long)
    assert name == f"#7 ☗{'s' * 40}… vs ☖{'g' * 40}… · ☖ wins"
    assert len(name) == 100


def test_help_teaches_the_notations() -> None:
    for lang in ("en", "ja"):
        help_text = "\n".join(body for _, body in wording.help_sections(lang))
        assert "P-7f" in help_text and "７六歩" in help_text
    japanese = "\n".join(body for _, body in wording.help_sections("ja"))
    assert "打ち歩詰め" in japanese and "/指す" in japanese


def test_truncate() -> None:
    assert wording.truncate("a" * 3000).endswith("…")
    assert len(wording.truncate("a" * 3000)) == wording.MAX_MESSAGE


def test_every_preset_format_rule_and_colour_has_a_name() -> None:
    """The choices are built from the service's tables: a new preset, format or rule
    without a name would break the command tree at start-up."""
    assert [wording.time_control_text("en", TimeControl.parse(p)) for p in PRESETS[-2:]] == [
        "7 days, then 1 day per move",
        "no time limit",
    ]
    assert wording.time_control_text("ja", TimeControl.parse("7d+1d")) == ("7日、切れたら1手1日")
    assert set(wording.FORMAT_NAMES) == {*FORMATS, ANIMATION}  # the records, and the GIF
    assert set(wording.RULE_NAMES) == set(ImpasseRule) == set(wording.RULE_CHOICE_NOTES)
    assert set(wording.COLOR_NAMES) == set(COLOR_WISHES)
    assert set(wording.PERSPECTIVE_NAMES) == set(Color)


@pytest.mark.parametrize(
    ("typed", "english", "japanese"),
    [
        ("3d", "3 days per move", "1手3日"),
        ("1d", "1 day per move", "1手1日"),
        ("1d12h", "1 day 12 hours per move", "1手1日12時間"),
        ("90m", "1 hour 30 minutes per move", "1手1時間30分"),
        ("7d+1d", "7 days, then 1 day per move", "7日、切れたら1手1日"),
        ("unlimited", "no time limit", "持ち時間無制限"),
    ],
)
def test_time_controls_in_both_languages(typed: str, english: str, japanese: str) -> None:
    control = TimeControl.parse(typed)
    assert wording.time_control_text("en", control) == english
    assert wording.time_control_text("ja", control) == japanese


def test_a_turn_message_names_the_game_escapes_the_names_and_links_the_thread() -> None:
    game = game_view()
    link = game_link(game)
    assert link == "https://discord.com/channels/1/3"
    message = wording.turn_message("en", game, link)
    assert message.startswith("Your move in game #7 (☗alice vs ☖\\*\\*@\u200beveryone\\*\\* bob)")
    assert "@everyone" not in message
    assert "Last move: ☗７六歩 (P-7f)" in message and f"<t:{int(DEADLINE.timestamp())}" in message
    assert message.endswith(f"The game: {link}")
    assert "はあなたの手番です" in wording.turn_message("ja", game, link)


def test_the_preferences_say_what_is_on() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    chosen = Preferences(confirm_moves=True)
    shown = wording.preferences_text("en", chosen, changed=False, zone=tokyo)
    assert "before it is played: on" in shown and "Direct messages: none" in shown
    assert "/preferences" in shown and "privacy" not in shown
    assert "Time zone: `Asia/Tokyo` (this server's" in shown and "Quiet hours" not in shown
    each = Preferences(notifications=Notifications.EACH_TURN, quiet_hours=QuietHours(22, 7))
    saved = wording.preferences_text("ja", each, changed=True, zone=tokyo)
    assert saved.startswith("設定を保存しました。") and "プライバシー設定" in saved
    assert "手番ごと" in saved and "22時〜7時" in saved


@pytest.mark.parametrize(("lang", "said"), [("en", "every day at 21:00"), ("ja", "毎日21時")])
def test_the_preferences_name_the_hour_and_zone_of_a_digest(lang: str, said: str) -> None:
    digest = Preferences(
        notifications=Notifications.DIGEST, digest_hour=21, time_zone="Europe/Paris"
    )
    shown = wording.preferences_text(lang, digest, changed=False, zone=ZoneInfo("Europe/Paris"))
    assert said in shown and "Europe/Paris" in shown
    assert "(this server's" not in shown and "サーバーの設定" not in shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_how_many_games_were_told_reads_right_for_one_and_many(lang: str) -> None:
    status = VacationStatus(2026, timedelta(days=14), timedelta(), None)
    one = wording.vacation_text(lang, status, games=1)
    many = wording.vacation_text(lang, status, games=3)
    none = wording.vacation_text(lang, status, games=0)
    assert "1 games" not in one and "1局" not in one
    assert ("thread" in one) if lang == "en" else ("対局スレッド" in one)
    assert "3" in many and "3" not in none.split("\n")[-1]
    assert none.count("\n") == one.count("\n") - 1  # no sentence about games told


@pytest.mark.parametrize("own", [True, False])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_full_list_of_finished_games_fits_and_says_how_many_more(lang: str, own: bool) -> None:
    """`/games` lists at most `LISTED` games: with the longest names Discord allows and
    eighteen-digit thread ids, they still fit a message, and the rest are counted; also
    another member's list, whose every line names its owner."""
    games = [
        GameSummary(
            id=100_000 + n,
            opponent=PlayerRef(n, "m" * 32),
            your_color=Color.GOTE,
            your_turn=False,
            ply=250,
            deadline=None,
            thread_id=10**17 + n,
            guild_id=1,
            result=list(Result)[n % 4],
            finished_at=DEADLINE,
        )
        for n in range(LISTED)
    ]
    owner = PlayerRef(ALICE.user_id, "o" * 32)
    listing = wording.games_list_text(
        lang, owner, GameList(games, 40), ListedStatus.FINISHED, own=own
    )
    assert len(listing) <= wording.MAX_MESSAGE
    assert listing.endswith("…and 40 more." if lang == "en" else "…ほか40局あります。")
    assert listing.count("<#") == LISTED and listing.count("<t:") == LISTED


def test_sentences_are_set_as_their_language_sets_them() -> None:
    """A space after an English full stop, none after a Japanese one: `。 棋譜は` would
    read as a stray gap to a Japanese reader."""
    assert wording.sentences("alice wins.", "Get the record.") == "alice wins. Get the record."
    assert wording.sentences("先手の勝ち。", "棋譜は", "?") == "先手の勝ち。棋譜は ?"
    assert wording.sentences("王手！", "次") == "王手！次"


@pytest.mark.parametrize(("lang", "said"), [("en", "1 day"), ("ja", "1日")])
def test_a_length_of_time_in_a_sentence_reads_as_a_duration(lang: str, said: str) -> None:
    sentence = Sentence("in the last {period}", period=timedelta(days=1))
    assert wording.say(lang, sentence).endswith(f" {said}" if lang == "en" else said)


def _handicap_view(outcome: Outcome | None = None, **players: PlayerRef) -> GameSnapshot:
    """A lance handicap game after Uwate's first move: alice receives (☗), bob gives (☖)."""
    game = Game(Handicap.LANCE.sfen, ["3c3d"])
    return game_view(game, outcome, handicap=Handicap.LANCE, written=THIRTY_FOUR, **players)


THIRTY_FOUR = MoveText("3c3d", "３四歩", "P-34")


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", f"#7 ☗alice (Shitate) vs ☖{BOB.name} (Uwate) · ☖Uwate wins"),
        ("ja", f"#7 ☗下手 alice 対 ☖上手 {BOB.name} · ☖上手の勝ち"),
    ],
)
def test_a_handicap_games_thread_names_its_sides(lang: str, expected: str) -> None:
    view = _handicap_view(Outcome(Termination.RESIGNATION, Color.GOTE))
    assert wording.thread_name(lang, view) == expected


def test_a_handicap_games_long_names_are_cut_but_its_sides_and_result_show() -> None:
    view = _handicap_view(
        Outcome(Termination.CHECKMATE, Color.GOTE),
        sente=PlayerRef(5, "s" * 60),
        gote=PlayerRef(6, "g" * 60),
    )
    for lang, sides in (("en", ("(Shitate)", "(Uwate)")), ("ja", ("☗下手", "☖上手"))):
        name = wording.thread_name(lang, view)
        assert len(name) <= 100 and name.startswith("#7 ")
        assert all(side in name for side in sides) and name.count("…") == 2
        assert name.endswith(("☖Uwate wins", "☖上手の勝ち"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_text_of_a_handicap_game_says_sente_or_gote(lang: str) -> None:
    """Every wording function that names a side, given a handicap game."""
    even_words = re.compile(r"\b(sente|gote)\b|先手|後手|先番", re.IGNORECASE)
    view = _handicap_view()
    over = _handicap_view(Outcome(Termination.CHECKMATE, Color.GOTE))
    summary = GameSummary(
        id=7,
        opponent=ALICE,
        your_color=Color.GOTE,
        your_turn=False,
        ply=1,
        deadline=DEADLINE,
        thread_id=3,
        guild_id=1,
        handicap=Handicap.LANCE,
    )
    texts = [
        wording.game_start_text(lang, view),
        wording.board_caption(lang, view),
        wording.board_caption(lang, over),
        wording.board_alt_text(lang, view),
        wording.board_alt_text(lang, over),
        wording.image_caption(lang, view),
        wording.image_result(lang, over),
        wording.text_diagram(lang, view),
        wording.text_diagram(lang, over),
        wording.reminder_text(lang, view),
        wording.turn_message(lang, view, "https://discord.com/channels/1/3"),
        wording.players_text(lang, view),
        wording.evaluation_chart_title(lang, view),
        wording.evaluation_chart_description(lang, view),
        wording.games_list_text(lang, BOB, GameList([summary], 0), ListedStatus.ACTIVE, own=True),
        *(wording.frame_caption(lang, 1, color, Handicap.LANCE) for color in Color),
    ]
    said = [t for t in texts if even_words.search(t)]
    assert said == []
    assert all(t for t in texts)


DURATIONS = [
    timedelta(0),
    timedelta(seconds=59),
    timedelta(minutes=1),
    timedelta(minutes=59, seconds=30),
    timedelta(hours=1),
    timedelta(hours=1, minutes=1),
    timedelta(days=1),
    timedelta(days=2, hours=3, minutes=4),
    timedelta(days=1000, minutes=2),
    timedelta(days=12_345, hours=23),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_durations_read_as_babel_wrote_them(lang: str) -> None:
    """The unit names moved from Babel's locale data to the catalogs, unchanged."""
    from babel.units import format_unit

    def babel_text(duration: timedelta) -> str:
        seconds, parts = int(duration.total_seconds()), []
        for size, unit in ((86_400, "day"), (3_600, "hour"), (60, "minute")):
            amount, seconds = divmod(seconds, size)
            if amount and lang == "en":
                parts.append(format_unit(amount, f"duration-{unit}", length="long", locale=lang))
            elif amount:
                parts.append(format_unit(amount, f"duration-{unit}", length="short", locale=lang))
        if not parts:
            parts.append(format_unit(0, "duration-minute", length="short", locale=lang))
        if lang == "en":
            return " ".join(parts)
        return "".join(part.replace(" ", "").replace("\u00a0", "") for part in parts)

    assert [wording.duration_text(lang, d) for d in DURATIONS] == [babel_text(d) for d in DURATIONS]
