"""Player names in any script: the names font's coverage, and names drawn on real PNGs.

The names font (`render.fonts.NAMES_FONT_PATH`) must hold kana, every kanji of
JIS X 0208 (levels 1 and 2), Latin with accents, Greek and Cyrillic; a
character it lacks is dropped or drawn as a neutral mark, never as `?` or as
the font's empty box (.notdef).
"""

from __future__ import annotations

import contextlib
import io

import pytest
from PIL import Image, ImageChops

from render import board, fonts, layout, render_board
from rules import Color, Position

JAPANESE = [
    "山田太郎",
    "山田太郎 (5段)",
    "藤井聡太",
    "羽生善治",
    "さくら",
    "ハナコ",
    "髙橋",
    "渡邉",
]
OTHERS = [
    "Ελένη Παπαδοπούλου",  # Greek, with accents the font lacks (drawn without them)
    "Дмитрий Шостакович",  # Cyrillic
    "Олександр Їжак",  # Ukrainian
    "José Müller-Çelik Ñúñez",  # Latin-1 accents
    "Łukasz Dvořák Żółć",  # Latin Extended-A
    "Nguyễn Văn Đức",  # Vietnamese
]
EMOJI = ["🐉 Taro 👨\u200d👩\u200d👧", "将棋👍大好き", "🎌"]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def jis_x_0208() -> set[str]:
    """Every character of JIS X 0208, read through Python's EUC-JP codec."""
    found = set()
    for first in range(0xA1, 0xFF):
        for second in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):
                found.add(bytes((first, second)).decode("euc_jp"))
    return found


def glyph(ch: str) -> bytes:
    """The bitmap the names font draws for `ch` (whatever glyph it picks, .notdef included)."""
    mask = fonts.name_font(32).getmask(ch, mode="L")
    return bytes(mask) + repr(mask.size).encode()


# ----------------------------------------------------------------- the font


def test_names_font_covers_jis_x_0208_latin_greek_cyrillic() -> None:
    ttlib = pytest.importorskip("fontTools.ttLib")
    cmap = set(ttlib.TTFont(str(fonts.NAMES_FONT_PATH)).getBestCmap())
    assert {ord(ch) for ch in fonts.name_characters()} == cmap
    jis = jis_x_0208()
    assert len(jis) == 6879
    missing = {ch for ch in jis if ord(ch) not in cmap}
    assert missing == {"≒"}  # the one JIS symbol Noto CJK maps nowhere (it has ≓)
    kanji = {ch for ch in jis if "\u4e00" <= ch <= "\u9fff"}
    assert len(kanji) >= 6355  # level 1 (2,965) and level 2 (3,390)
    greek = set("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρσςτυφχψω")
    cyrillic = {chr(c) for c in range(0x410, 0x450)} | set("Ёё")
    latin = {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xC0, 0x100)}
    assert {ord(ch) for ch in greek | cyrillic | latin} <= cmap
    # The pieces keep their own small font; the names font has everything it has.
    assert fonts.characters() <= fonts.name_characters()


def test_every_character_of_the_sample_names_is_in_the_font() -> None:
    for name in JAPANESE:
        assert set(name) <= fonts.name_characters(), name
        assert fonts.printable(name) == name


@pytest.mark.parametrize("name", JAPANESE + OTHERS)
def test_names_draw_real_glyphs_not_notdef(name: str) -> None:
    notdef = glyph("\U0001f409")  # a dragon emoji: not in the font, so its .notdef box
    text = fonts.printable(name)
    assert "?" not in text
    for ch in text.replace(" ", ""):
        assert glyph(ch) != notdef, (name, ch)
        assert max(fonts.name_font(32).getmask(ch, mode="L")) > 128, (name, ch)  # has ink


def test_symbols_are_kept_and_unknown_letters_become_a_neutral_mark() -> None:
    assert fonts.printable("🐉 Taro 👨\u200d👩\u200d👧") == "🐉 Taro 👨👩👧"  # joiners dropped
    assert fonts.printable("将棋👍🏽大好き") == "将棋👍大好き"  # a skin tone cannot be shown
    assert fonts.printable("🥰Kai") == "Kai"  # an emoji newer than the symbols' font
    assert fonts.printable("Łukasz") == "Lukasz"
    assert fonts.printable("Олександр Їжак") == "Олександр Ïжак"
    assert fonts.printable("Ελένη") == "Ελενη"
    assert fonts.printable("Kim 김") == "Kim ・"  # Hangul is not in the subset
    assert fonts.printable("Hanako  Taro ") == "Hanako  Taro "  # untouched when nothing drops


# ----------------------------------------------------------------- on the board


def band_of(png: bytes, color: Color, perspective: Color) -> Image.Image:
    return decode(png).crop(layout.name_box(color, perspective))


def ink_in(image: Image.Image) -> int:
    """Pixels drawn in the ink colour (text on paper)."""
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is not None
    return sum(count for count, colour in colours if colour == board.INK)


@pytest.mark.parametrize("perspective", list(Color))
def test_a_japanese_name_differs_from_question_marks_and_notdef(perspective: Color) -> None:
    position = Position.initial()  # sente to move: gote's label is ink on paper
    renders = {
        name: render_board(position, perspective=perspective, sente_name="A", gote_name=name)
        for name in ("山田太郎", "????", "\U000f0000\U000f0001\U000f0002\U000f0003")
    }
    bands = {name: band_of(png, Color.GOTE, perspective) for name, png in renders.items()}
    assert ink_in(bands["山田太郎"]) > 200
    assert ImageChops.difference(bands["山田太郎"], bands["????"]).getbbox() is not None
    unknown = bands["\U000f0000\U000f0001\U000f0002\U000f0003"]  # private use: all `・`
    assert ImageChops.difference(bands["山田太郎"], unknown).getbbox() is not None


@pytest.mark.parametrize("perspective", list(Color))
@pytest.mark.parametrize("name", JAPANESE[:2] + OTHERS + EMOJI)
def test_names_in_any_script_render_from_both_sides(name: str, perspective: Color) -> None:
    position = Position.initial()
    png = render_board(position, perspective=perspective, sente_name=name, gote_name=name)
    image = decode(png)
    assert image.size == layout.SIZE
    if fonts.printable(name):  # an emoji alone leaves only the turn mark (☖ is hollow)
        assert ink_in(band_of(png, Color.GOTE, perspective)) > 50
    sente_band = band_of(png, Color.SENTE, perspective)
    assert board.PILL in {c for _n, c in sente_band.getcolors(maxcolors=1 << 16) or []}


@pytest.mark.parametrize("perspective", list(Color))
@pytest.mark.parametrize("unit", ["a", "山", "Ж", "あ🐉"])
def test_a_100_character_name_fits_its_label(unit: str, perspective: Color) -> None:
    name = (unit * 100)[:100]
    label = board.name_label(f"☗ {name}", False, board.NAME_MAX_W)
    assert label.width <= board.NAME_MAX_W
    png = render_board(Position.initial(), perspective=perspective, sente_name=name, gote_name=name)
    assert decode(png).size == layout.SIZE
    # Gote's label (not to move: ink on paper) spans at most NAME_MAX_W, header or
    # footer: the name was shortened, not drawn past its room.
    band = band_of(png, Color.GOTE, perspective)
    columns = [
        x
        for x in range(band.width)
        if any(band.getpixel((x, y)) == board.INK for y in range(band.height))
    ]
    assert columns and max(columns) - min(columns) < board.NAME_MAX_W
    assert fonts.text_width(fonts.printable(name), 24) > board.NAME_MAX_W  # too long


# ----------------------------------------------------------------- emoji and symbols


def label_ink(text: str) -> Image.Image:
    """A name label of `text` drawn as ink on paper (not to move)."""
    return board.name_label(text, False, board.NAME_MAX_W).convert("RGB")


def test_an_emoji_in_a_name_is_drawn_not_dropped_nor_a_box() -> None:
    with_emoji, without = label_ink("☖ はなこ🌸"), label_ink("☖ はなこ")
    assert with_emoji.width > without.width + 10  # room for the flower
    # The flower's own pixels, right of where "はなこ" ends: drawn, with ink in them.
    flower = with_emoji.crop((without.width - 14, 0, with_emoji.width - 14, with_emoji.height))
    assert ink_in(flower) > 20
    # Not the names font's empty box (.notdef), which is what a font without it draws.
    drawn = fonts.symbol_font(48).getmask("🌸", mode="L")
    box = fonts.name_font(48).getmask("🌸", mode="L")
    assert drawn.size != box.size or bytes(drawn) != bytes(box)
    assert max(drawn) > 128
    assert fonts.runs("はなこ🌸") == (("はなこ", False), ("🌸", True))


@pytest.mark.parametrize("perspective", list(Color))
def test_hanako_keeps_her_flower_on_the_board(perspective: Color) -> None:
    position = Position.initial()  # sente to move: gote's label is ink on paper
    bands = {
        name: band_of(
            render_board(position, perspective=perspective, sente_name="A", gote_name=name),
            Color.GOTE,
            perspective,
        )
        for name in ("はなこ🌸", "はなこ")
    }
    assert ImageChops.difference(bands["はなこ🌸"], bands["はなこ"]).getbbox() is not None
    assert ink_in(bands["はなこ🌸"]) > ink_in(bands["はなこ"]) + 20


def test_an_emoji_in_a_chart_title_is_drawn() -> None:
    from render import render_rating_chart

    with_emoji = decode(render_rating_chart([1500, 1560], title="はなこ🌸"))
    without = decode(render_rating_chart([1500, 1560], title="はなこ"))
    title = (0, 0, with_emoji.width, 34 * 2)
    assert ImageChops.difference(with_emoji.crop(title), without.crop(title)).getbbox()
