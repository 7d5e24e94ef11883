"""Positions and records from anywhere, end to end: `/board` with an SFEN, a pasted record
and an attached file at a ply, bad input named by line and column in both languages (a
malformed CSA wholly in Japanese), an oversize file refused; a challenge from a tsume SFEN
played to mate, from a pasted record and from a record file at a ply, and their exports
read back (the KIF with its move numbers); a challenge's file refused as /board's; the
ambiguous R87 asked with buttons; a CSA record pasted on one line, read in Japanese."""

from __future__ import annotations

import io

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest
from PIL import Image

from bot.services import MAX_RECORD_BYTES, read_position
from bot.ui import replies, text
from render import render_board
from render.layout import name_box
from rules import Color, Move, Position, Termination
from rules.notation import read_record
from tests.fakediscord import FakeAttachment, InteractionResult, UserFile
from tests.support.boardwords import alt_text_position, board_part
from tests.support.checks import button_id, record_text, without_mark
from tests.support.club import Club
from tests.support.japanese import assert_japanese

TSUME = "4k4/9/4G4/9/9/9/9/9/9 b G 1"  # G*5b mates; sente has no king
KIF = (
    "手合割：平手\n先手：羽生\n後手：佐藤\n"
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n"
)
AFTER_TWO = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"


def _csa_row(rank: int, piece: str) -> str:
    """A CSA `P` row with `piece` (such as `-FU`) on file 5 and nothing else."""
    return f"P{rank}" + " * " * 4 + piece + " * " * 4


NIFU_CSA = "\n".join(  # two gote pawns on file 5: a record may start there, a game may not
    ["V2.2", _csa_row(1, "-OU"), _csa_row(4, "-FU"), _csa_row(5, "-FU"), _csa_row(9, "+OU"), "+"]
)
BAD_KIF = "手合割：平手\n   1 ７六歩(77)\n   2 ５五飛(82)\n"  # line 3, column 6


def png(attachment: FakeAttachment) -> Image.Image:
    with Image.open(io.BytesIO(attachment.data)) as image:
        assert image.format == "PNG"
        return image.convert("RGB")


def shown_position(result: InteractionResult) -> str:
    """The position the image's alt text describes, in the words `board_part` uses."""
    [image] = result.files
    assert image.description is not None
    png(image)
    return alt_text_position("en", image.description)


async def board(club: Club, **options: object) -> InteractionResult:
    return await club.fake.slash("board", options, user=club.carol, channel=club.channel)


async def test_board_shows_an_sfen_a_pasted_record_and_a_file_at_a_ply(club: Club) -> None:
    sfen = await board(club, position=TSUME)
    assert sfen.ephemeral and "Move 0 of 0" in sfen.content
    assert shown_position(sfen) == board_part(Position.from_sfen(TSUME))

    pasted = await board(club, position=KIF.replace("\n", " "), at_move=2)  # as Discord sends it
    assert pasted.ephemeral
    assert "☗羽生 vs ☖佐藤 · move 2 of 4" in pasted.content
    assert "Last move: ☖３四歩 (P-3d)" in pasted.content
    assert shown_position(pasted) == board_part(Position.from_sfen(AFTER_TWO))

    kif_file = UserFile("game.kif", KIF.encode("cp932"))  # as Japanese software saves it
    attached = await board(club, record=kif_file, at_move=3, public=True)
    assert not attached.ephemeral and "move 3 of 4" in attached.content
    assert "☗２二角成" in attached.content
    after_three = Position.from_sfen(AFTER_TWO)
    after_three.push(Move.from_usi("8h2b+"))
    assert shown_position(attached) == board_part(after_three)


async def test_a_position_as_a_text_diagram(club: Club) -> None:
    diagram = await board(club, position=TSUME, style="text")
    assert diagram.ephemeral and diagram.files == []
    assert "Move 0 · Sente to move" in diagram.content and "```" in diagram.content


async def test_an_irregular_start_is_shown_with_a_note(club: Club) -> None:
    nifu = await board(club, position="4k4/9/9/4p4/4p4/9/9/9/4K4 b - 1")
    assert nifu.files and "irregular position" in nifu.content and "nifu" in nifu.content


async def test_bad_input_says_where(club: Club) -> None:
    english = await board(club, position=BAD_KIF.replace("\n", " "))
    assert english.ephemeral and english.files == []
    assert "Line 3, column " in english.content and "could not play '５五飛(82)'" in english.content
    attached = await board(club, record=UserFile("bad.kif", BAD_KIF.encode()))
    assert attached.content.startswith("Line 3, column 6: could not play '５五飛(82)'")
    too_far = await board(club, position=KIF, at_move=9)
    assert "from move 0 (its start) to move 4: pick a move between" in too_far.content


async def test_japanese_readers_read_where_and_the_record_in_japanese(japanese_club: Club) -> None:
    japanese = await japanese_club.fake.slash(
        "board",
        {"record": UserFile("bad.kif", BAD_KIF.encode("cp932"))},
        user=japanese_club.carol,
        channel=japanese_club.channel,
    )
    assert japanese.content.startswith("3行目6文字目：「５五飛(82)」は指せません：")
    assert_japanese(japanese)
    shown = await japanese_club.fake.slash(
        "board",
        {"position": KIF.replace("\n", " "), "at_move": 2},
        user=japanese_club.carol,
        channel=japanese_club.channel,
    )
    assert "☗羽生 対 ☖佐藤・2手目（4手まで）" in shown.content and "☖３四歩" in shown.content
    assert_japanese(shown)


async def test_options_that_do_not_go_together_are_refused(club: Club) -> None:
    table = await club.new_game()
    both = await club.fake.slash(
        "board", {"game": str(table.game_id), "position": TSUME}, user=club.alice,
        channel=club.channel,
    )  # fmt: skip
    assert both.ephemeral and "not both" in both.content and both.files == []
    alone = await board(club, at_move=3)
    assert alone.ephemeral and "`/replay`" in alone.content
    start_move = await club.fake.slash(
        "challenge", {"opponent": club.bob, "start_move": 2}, user=club.alice, channel=club.channel
    )
    assert start_move.ephemeral and "goes with a record" in start_move.content


async def test_an_oversize_file_is_refused_unread(club: Club) -> None:
    big = UserFile("huge.kif", b"*" * (MAX_RECORD_BYTES + 1))
    result = await board(club, record=big)
    assert result.ephemeral and result.files == []
    assert "a record file may be at most 256 KiB" in result.content
    downloads = [r for r in club.fake.requests if "/cdn/ephemeral-attachments/" in r.path]
    assert downloads == []  # refused from its size, before reading


async def test_a_tsume_challenge_is_played_to_mate_and_exports_with_its_start(
    club: Club,
) -> None:
    challenge = await club.challenge(club.alice, club.bob, color="sente", start=TSUME)
    assert f"Start position: `{TSUME}` (Sente moves first)." in challenge.content
    assert "unrated" in challenge.content
    table = await club.accept(challenge, club.bob)
    mate = await club.move(club.alice, "G*5b", table)
    assert not mate.ephemeral and "Checkmate" in mate.content
    game = await club.game(table.game_id)
    assert game.outcome is not None and game.outcome.termination is Termination.CHECKMATE
    assert game.outcome.winner is Color.SENTE

    exported = await club.fake.slash(
        "export", {"format": "kif"}, user=club.alice, channel=table.thread
    )
    [kif_file] = [a for a in exported.files if a.filename.endswith(".kif")]
    kif = record_text(kif_file)
    assert "手合割" not in kif and cshogi.KIF.board_to_bod(cshogi.Board(TSUME)) in kif
    back = read_record(kif)
    assert back.game.start.sfen() == TSUME and [m.usi() for m in back.game.moves] == ["G*5b"]
    assert [cshogi.move_to_usi(m) for m in cshogi.KIF.Parser.parse_str(kif).moves] == ["G*5b"]
    exported = await club.fake.slash(
        "export", {"format": "csa"}, user=club.alice, channel=table.thread
    )
    [csa_file] = [a for a in exported.files if a.filename.endswith(".csa")]
    theirs = cshogi.CSA.Parser.parse_str(csa_file.data.decode())[0]
    assert theirs.sfen.split()[:3] == TSUME.split()[:3]
    assert [cshogi.move_to_usi(m) for m in theirs.moves] == ["G*5b"]


async def test_a_challenge_from_a_record_at_a_ply(club: Club) -> None:
    challenge = await club.challenge(
        club.alice, club.bob, color="gote", start=KIF.replace("\n", " "), start_move=2
    )
    assert f"`{AFTER_TWO}`" in challenge.content
    table = await club.accept(challenge, club.bob)
    game = await club.game(table.game_id)
    assert game.game.start.sfen() == AFTER_TWO
    assert game.to_move is not None and game.to_move.user_id == club.bob.user.id
    refused = await club.fake.slash(
        "challenge",
        {"opponent": club.bob, "start": "4k4/9/9/4p4/4p4/9/9/9/4K4 b - 1"},
        user=club.alice,
        channel=club.channel,
    )
    assert refused.ephemeral and "cannot be used" in refused.content and "nifu" in refused.content


async def test_a_challenge_shows_its_start_in_japanese(japanese_club: Club) -> None:
    japanese = await japanese_club.fake.slash(
        "challenge",
        {"opponent": japanese_club.bob, "start": TSUME},
        user=japanese_club.alice,
        channel=japanese_club.channel,
    )
    assert f"開始局面：`{TSUME}`（先手から指します）。" in japanese.content
    assert_japanese(japanese)


async def test_an_ambiguous_r87_is_asked_with_a_button_each(club: Club) -> None:
    """A dragon that can go to 8g and a rook in hand: the bare R87 asks which."""
    table = await club.new_game(start="4k4/1+R7/9/9/9/9/9/9/4K4 b R 1")
    asked = await club.move(club.alice, "R87", table)
    assert asked.ephemeral and len(asked.labels) == 2
    drop = f"pr:{table.game_id}:0:R*8g"
    assert sorted(without_mark(c) for c in asked.custom_ids) == sorted(
        [drop, f"pr:{table.game_id}:0:8b8g"]
    )
    chosen = await club.fake.click(asked, button_id(asked.custom_ids, drop), user=club.alice)
    assert chosen.ephemeral
    game = await club.game(table.game_id)
    assert [m.usi() for m in game.game.moves] == ["R*8g"]


async def test_a_challenge_from_an_attached_kif_at_a_ply(club: Club) -> None:
    """A record too long to paste goes as a file, read as /board reads one; the game
    starts after its second move and its records start there."""
    kif_file = UserFile("game.kif", KIF.encode("cp932"))  # as Japanese software saves it
    challenge = await club.challenge(
        club.alice, club.bob, color="sente", record=kif_file, start_move=2
    )
    assert f"Start position: `{AFTER_TWO}` (Sente moves first)." in challenge.content
    table = await club.accept(challenge, club.bob)
    played = await club.move(club.alice, "2g2f", table)
    assert not played.ephemeral, played.content
    game = await club.game(table.game_id)
    assert game.game.start.sfen() == AFTER_TWO
    assert [m.usi() for m in game.game.moves] == ["2g2f"]

    exported = await club.fake.slash(
        "export", {"format": "kif"}, user=club.alice, channel=table.thread
    )
    [export] = [a for a in exported.files if a.filename.endswith(".kif")]
    kif = record_text(export)
    assert "手合割" not in kif and cshogi.KIF.board_to_bod(cshogi.Board(AFTER_TWO)) in kif
    assert "手数＝2\n" in kif and "\n   3 ２六歩(27)\n" in kif  # two moves came before
    back = read_record(kif)
    assert back.game.start.sfen() == AFTER_TWO  # the move number too
    assert [m.usi() for m in back.game.moves] == ["2g2f"]
    exported = await club.fake.slash(
        "export", {"format": "csa"}, user=club.alice, channel=table.thread
    )
    [csa_file] = [a for a in exported.files if a.filename.endswith(".csa")]
    theirs = cshogi.CSA.Parser.parse_str(csa_file.data.decode())[0]
    assert theirs.sfen.split()[:3] == AFTER_TWO.split()[:3]
    assert [cshogi.move_to_usi(m) for m in theirs.moves] == ["2g2f"]


async def test_a_challenge_file_is_refused_as_board_refuses_it(club: Club) -> None:
    async def challenge(**options: object) -> InteractionResult:
        result = await club.fake.slash(
            "challenge", {"opponent": club.bob, **options}, user=club.alice, channel=club.channel
        )
        assert result.ephemeral, result.content
        return result

    big = await challenge(record=UserFile("huge.kif", b"*" * (MAX_RECORD_BYTES + 1)))
    assert "a record file may be at most 256 KiB" in big.content
    downloads = [r for r in club.fake.requests if "/cdn/ephemeral-attachments/" in r.path]
    assert downloads == []  # refused from its size, before reading
    bad = await challenge(record=UserFile("bad.kif", BAD_KIF.encode()), start_move=1)
    assert bad.content.startswith("Line 3, column 6: could not play '５五飛(82)'")
    refused = await challenge(record=UserFile("nifu.csa", NIFU_CSA.encode()))
    assert "cannot be used" in refused.content and "nifu" in refused.content
    both = await challenge(start=TSUME, record=UserFile("game.kif", KIF.encode()))
    assert "not both" in both.content
    posted = [m for m in club.fake.channel_history(club.channel) if m.custom_ids]
    assert posted == []  # no challenge was offered


async def test_a_malformed_csa_reads_in_japanese(japanese_club: Club) -> None:
    """What is wrong in a pasted CSA (commas for its line breaks) is said in Japanese,
    quoting the player's own text."""
    pasted = "V2.2,P1-KY-KE-GI-KI-XX-KI-GI-KE-KY,+"
    result = await japanese_club.fake.slash(
        "board", {"position": pasted}, user=japanese_club.carol, channel=japanese_club.channel
    )
    assert result.ephemeral and result.files == []
    assert result.content.startswith(
        "1行目6文字目：「P1-KY-KE-GI-KI-XX-KI-GI-KE-KY」が読めません："
    )
    assert "駒として読めません" in result.content
    assert_japanese(result)


async def test_a_csa_record_pasted_on_one_line_reads_in_japanese(japanese_club: Club) -> None:
    """A CSA record pasted into `/board`'s text box arrives with spaces for its line
    breaks: it is read as its file (names with spaces, the moves, the result), and what
    cannot be read is named by line and column, in Japanese."""
    csa = (
        "V2.2\nN+羽生 善治\nN-佐藤 天彦\n$EVENT:練習対局 第1局\nPI\n+\n"
        "+7776FU\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n"
    )

    async def paste(text: str, **options: object) -> InteractionResult:
        return await japanese_club.fake.slash(
            "board",
            {"position": text.replace("\n", " "), **options},
            user=japanese_club.carol,
            channel=japanese_club.channel,
        )

    shown = await paste(csa, at_move=2)
    assert shown.ephemeral and "☗羽生 善治 対 ☖佐藤 天彦・2手目（4手まで）" in shown.content
    assert "☖３四歩" in shown.content
    [image] = shown.files
    assert image.description is not None and png(image)
    assert alt_text_position("ja", image.description) == board_part(Position.from_sfen(AFTER_TWO))
    assert_japanese(shown)
    end = await paste(csa)
    assert "4手目（4手まで）" in end.content and "☖同　銀" in end.content

    bad = await paste(csa.replace("-3122GI", "-3123GI"))
    assert bad.files == []
    assert bad.content.startswith("10行目1文字目：「\\-3123GI」が読めません：")  # Markdown-safe
    assert "２三には自分の歩" in bad.content
    assert_japanese(bad)


def name_bands(image: Image.Image) -> list[bytes]:
    """The pixels of the bands where the players' names are drawn (with the caption)."""
    return [image.crop(name_box(color)).tobytes() for color in Color]


def bands_with_names(lang: str, sente: str | None, gote: str | None) -> list[bytes]:
    """The name bands of TSUME drawn with these names, captioned as `/board` captions it."""
    caption = text.position_image_caption(lang, read_position(TSUME))
    drawn = render_board(
        Position.from_sfen(TSUME), sente_name=sente, gote_name=gote, caption=caption
    )
    with Image.open(io.BytesIO(drawn)) as image:
        return name_bands(image.convert("RGB"))


async def test_a_bare_position_names_its_sides_in_the_readers_language(club: Club) -> None:
    [english] = (await board(club, position=TSUME)).files
    shown = name_bands(png(english))
    named_in_english = shown == bands_with_names("en", "Sente", "Gote")
    assert named_in_english
    named_in_japanese = shown == bands_with_names("en", None, None)  # 先手 / 後手
    assert not named_in_japanese


async def test_a_bare_position_names_its_sides_in_japanese(japanese_club: Club) -> None:
    [japanese] = (await board(japanese_club, position=TSUME)).files
    named_in_japanese = name_bands(png(japanese)) == bands_with_names("ja", "先手", "後手")
    assert named_in_japanese


async def test_a_challenge_from_a_position_shows_its_board(club: Club) -> None:
    challenge = await club.challenge(club.alice, club.bob, color="sente", start=TSUME)
    assert shown_position(challenge) == board_part(Position.from_sfen(TSUME))
    table = await club.accept(challenge, club.bob)
    assert challenge.reply is not None and challenge.reply.attachments  # kept once taken
    await club.move(club.alice, "G*5b", table)
    [ending] = await club.posts(table.thread, "Checkmate")
    await club.fake.click(ending, f"rm:{table.game_id}", user=club.bob)
    [rematch] = await club.posts(club.channel, "offers you a rematch")
    [image] = rematch.attachments
    assert image.description is not None
    assert alt_text_position("en", image.description) == board_part(Position.from_sfen(TSUME))
    usual = await club.challenge(club.alice, club.carol)
    assert usual.files == []  # the usual start needs no board


async def test_a_challenge_from_a_position_shows_its_board_in_japanese(
    japanese_club: Club,
) -> None:
    club = japanese_club
    challenge = await club.challenge(club.alice, club.bob, color="sente", start=TSUME)
    [image] = challenge.files
    png(image)
    assert image.description is not None
    assert alt_text_position("ja", image.description) == board_part(Position.from_sfen(TSUME))
    assert_japanese(challenge)


async def test_a_slow_challenge_is_posted_on_its_own_and_accepted_from_there(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A challenge whose start is slow to read is deferred: its post goes as a message of
    its own (to notify bob) and the "thinking" note is deleted; that post carries the board
    and the buttons, and accepting it starts the game from the position."""
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.0)
    challenge = await club.challenge(club.alice, club.bob, color="sente", start=TSUME)
    assert challenge.deferred and challenge.original is None
    posted = challenge.reply
    assert posted is not None and posted.mentioned_user_ids == [club.bob.user.id]
    [image] = challenge.files
    png(image)
    table = await club.accept(challenge, club.bob)
    assert (await club.game(table.game_id)).row.start_sfen == TSUME
