"""A tournament's crosstable: an image (PNG bytes) and the same table as plain sentences
for screen readers.

Each row is a player, in the order given (the standings' order): their rank, their number
(which heads their column), their name, their result against every other player (1, 0,
½, a forfeit as + or −; two cells per pair in a double round robin, in the order played;
an empty cell for a game not finished), their points and their Sonneborn-Berger figure.

The caller words the table (`Words`: the headings and the sentences of the text), so the
same drawing serves every language; the English words are the default. Names go through
`clipped` and `printable` like every label and are shortened to their column, so any name
is safe; the number of players is bounded (`MAX_PLAYERS`), which bounds the image.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import clipped, draw_text, fit_text, name_font, printable, text_width

#: The most players a crosstable draws: past this a table is unreadable as one image.
MAX_PLAYERS = 64

RGB = tuple[int, int, int]

BACKGROUND = (250, 247, 240)
STRIPE = (242, 236, 224)
GRID = (205, 195, 178)
TEXT = (40, 35, 30)
FAINT = (120, 110, 100)
HEADING = (90, 70, 55)
SELF = (120, 110, 100)
WIN = (150, 40, 30)

SIZE = 15
TITLE_SIZE = 18
ROW = 28
PAD = 14
CELL = 24
NAME_MIN, NAME_MAX = 110, 220
#: zlib's level for the PNG: the table's flat colours compress well without searching.
COMPRESSION = 6
#: Shades of each ink over each background in the encoded image's palette.
SHADES = 16


class Mark(Enum):
    """A finished game's result for the row's player, as the cell shows it."""

    WIN = "1"
    LOSS = "0"
    DRAW = "½"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "−"


@dataclass(frozen=True, slots=True)
class Row:
    """One player's line. `results[j]` holds the games against the player of row `j`, in
    the order played (None for one not finished; nothing against themself); `rank` is None
    for a player listed without a rank (withdrawn, their games annulled); `withdrawn` marks
    a player who withdrew (their name is drawn fainter)."""

    name: str
    results: tuple[tuple[Mark | None, ...], ...]
    points: Fraction
    sonneborn_berger: Fraction
    rank: int | None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Crosstable:
    """The rows, best first; `games_per_pair` is 2 in a double round robin.

    >>> Crosstable((Row("Ann", ((), (Mark.WIN,)), Fraction(1), Fraction(0), 1),
    ...             Row("Bo", ((Mark.LOSS,), ()), Fraction(0), Fraction(0), 2))).games_per_pair
    1
    """

    rows: tuple[Row, ...]
    games_per_pair: int = 1
    title: str | None = None

    def __post_init__(self) -> None:
        if not 2 <= len(self.rows) <= MAX_PLAYERS:
            raise ValueError(f"a crosstable has 2 to {MAX_PLAYERS} players")
        if self.games_per_pair not in (1, 2):
            raise ValueError("a pair plays one game or two in a crosstable")
        for index, row in enumerate(self.rows):
            if len(row.results) != len(self.rows):
                raise ValueError("every row has a result cell for every player")
            for column, games in enumerate(row.results):
                expected = 0 if column == index else self.games_per_pair
                if len(games) != expected:
                    raise ValueError("a cell holds one result per game of the pair")


@dataclass(frozen=True, slots=True)
class Words:
    """How a crosstable is worded: its headings and the sentences of its text version
    (placeholders in braces). The bot passes the reader's language's."""

    rank: str = "Rank"
    player: str = "Player"
    points: str = "Points"
    sonneborn_berger: str = "SB"
    heading: str = "Crosstable of {count} players."
    titled_heading: str = "{title}: crosstable of {count} players."
    line: str = "{rank}. {name}: score {points}, Sonneborn-Berger {sb}."
    withdrawn: str = "{name} (withdrawn)"
    annulled: str = "{name}: withdrawn, games annulled."
    against: str = "Against {name}: {results}."
    win: str = "won"
    loss: str = "lost"
    draw: str = "drew"
    forfeit_win: str = "won by forfeit"
    forfeit_loss: str = "lost by forfeit"
    pending: str = "not played yet"
    separator: str = ", "


def number(value: Fraction) -> str:
    """A score as a crosstable prints it: whole points and ¼, ½ or ¾, else two decimals.

    >>> [number(Fraction(n, d)) for n, d in ((7, 2), (29, 4), (1, 2), (0, 1), (1, 3))]
    ['3½', '7¼', '½', '0', '0.33']
    """
    whole, part = divmod(value, 1)
    glyph = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    if part in glyph:
        return (str(whole) if whole or not part else "") + glyph[part]
    return f"{float(value):.2f}"


def render_crosstable(table: Crosstable, *, words: Words = Words()) -> bytes:
    """The crosstable as a PNG.

    >>> png = render_crosstable(Crosstable((
    ...     Row("Ann", ((), (Mark.WIN,)), Fraction(1), Fraction(0), 1),
    ...     Row("Bo", ((Mark.LOSS,), ()), Fraction(0), Fraction(0), 2))))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    return encoded(Grid(table, words).image())


def encoded(image: Image.Image) -> bytes:
    """An image drawn in the crosstable's inks on its grounds (the crosstable, a team
    match's scoreboard) as a PNG: a few flat colours and the text's edges, so a palette of
    exactly those keeps the file a tenth of the size and is quicker to encode than the full
    colour image."""
    small = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", compress_level=COMPRESSION)
    return out.getvalue()


class Grid:
    """Where every column and row of a crosstable's image is, and the drawing of each."""

    def __init__(self, table: Crosstable, words: Words) -> None:
        self.table, self.words = table, words
        self.names = [printable(clipped(row.name)) for row in table.rows]
        count = len(table.rows)
        heading = [printable(clipped(text)) for text in (words.rank, words.player)]
        self.rank_width = max(_width("—"), _width(heading[0]), _width(f"{count}")) + PAD
        self.number_width = _width(f"{count}") + PAD
        widest = max(text_width(name, SIZE) for name in self.names)
        self.name_width = int(min(NAME_MAX, max(NAME_MIN, widest + PAD, _width(heading[1]) + PAD)))
        self.pair_width = CELL * table.games_per_pair
        self.points_width = self._column([number(r.points) for r in table.rows], words.points)
        self.sb_width = self._column(
            [number(r.sonneborn_berger) for r in table.rows], words.sonneborn_berger
        )
        self.top = PAD + (TITLE_SIZE + 16 if table.title else 0)
        self.left = PAD
        self.cells_left = self.left + self.rank_width + self.number_width + self.name_width
        self.points_left = self.cells_left + count * self.pair_width
        self.width = self.points_left + self.points_width + self.sb_width + PAD
        self.height = self.top + ROW * (count + 1) + PAD

    def cell(self, row: int, column: int, game: int = 0) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of the cell of `row`'s `game`-th result
        against the player of `column` (rows and columns from 0)."""
        left = self.cells_left + column * self.pair_width + game * CELL
        top = self.top + ROW * (row + 1)
        return left, top, left + CELL, top + ROW

    def _column(self, values: list[str], heading: str) -> int:
        texts = [*values, printable(clipped(heading))]
        return int(max(text_width(text, SIZE) for text in texts)) + 2 * PAD

    def image(self) -> Image.Image:
        """The crosstable drawn."""
        image = Image.new("RGB", (self.width, self.height), BACKGROUND)
        self.draw(image)
        return image

    def draw(self, image: Image.Image) -> None:
        table = self.table
        draw = ImageDraw.Draw(image)
        if table.title:
            title = fit_text(printable(clipped(table.title)), TITLE_SIZE, self.width - 2 * PAD)
            stamp(image, title, TITLE_SIZE, (PAD, PAD), TEXT)
        count = len(table.rows)
        bottom = self.top + ROW * (count + 1)
        for index in range(count):
            y = self.top + ROW * (index + 1)
            if index % 2:
                draw.rectangle([self.left, y, self.width - PAD, y + ROW], fill=STRIPE)
        for index, row in enumerate(table.rows):
            self._row(image, draw, index, row)
        self._headings(image)
        right = self.width - PAD
        for index in range(count + 2):
            y = self.top + ROW * index
            draw.line([(self.left, y), (right, y)], fill=GRID)
        name_left = self.left + self.rank_width + self.number_width
        edges = [self.left, self.left + self.rank_width, name_left, self.cells_left]
        edges += [self.cells_left + self.pair_width * j for j in range(1, count + 1)]
        edges += [self.points_left + self.points_width, right]
        for x in edges:
            draw.line([(x, self.top), (x, bottom)], fill=GRID)

    def _headings(self, image: Image.Image) -> None:
        y = self.top
        words = self.words
        self._text(image, words.rank, self.left, self.rank_width, y, HEADING)
        name_left = self.left + self.rank_width + self.number_width
        self._text(image, words.player, name_left, self.name_width, y, HEADING, centred=False)
        for column in range(len(self.table.rows)):
            left = self.cells_left + column * self.pair_width
            self._text(image, str(column + 1), left, self.pair_width, y, HEADING)
        self._text(image, words.points, self.points_left, self.points_width, y, HEADING)
        sb_left = self.points_left + self.points_width
        self._text(image, words.sonneborn_berger, sb_left, self.sb_width, y, HEADING)

    def _row(self, image: Image.Image, draw: ImageDraw.ImageDraw, index: int, row: Row) -> None:
        y = self.top + ROW * (index + 1)
        rank = "—" if row.rank is None else str(row.rank)
        self._text(image, rank, self.left, self.rank_width, y, TEXT)
        number_left = self.left + self.rank_width
        self._text(image, str(index + 1), number_left, self.number_width, y, FAINT)
        name = fit_text(self.names[index], SIZE, self.name_width - PAD)
        ink = FAINT if row.withdrawn or row.rank is None else TEXT
        stamp(image, name, SIZE, (number_left + self.number_width + PAD // 2, y + 5), ink)
        for column, games in enumerate(row.results):
            left = self.cells_left + column * self.pair_width
            if column == index:
                draw.rectangle([left, y, left + self.pair_width, y + ROW], fill=SELF)
                continue
            for game, mark in enumerate(games):
                if mark is not None:
                    colour = WIN if mark in (Mark.WIN, Mark.FORFEIT_WIN) else TEXT
                    self._text(image, mark.value, left + game * CELL, CELL, y, colour)
            if self.table.games_per_pair == 2:  # a fainter line between a pair's two games
                x = left + CELL
                draw.line([(x, y + 6), (x, y + ROW - 6)], fill=GRID)
        self._text(image, number(row.points), self.points_left, self.points_width, y, TEXT)
        sb_left = self.points_left + self.points_width
        self._text(image, number(row.sonneborn_berger), sb_left, self.sb_width, y, TEXT)

    @staticmethod
    def _text(
        image: Image.Image,
        text: str,
        left: int,
        width: int,
        y: int,
        colour: tuple[int, int, int],
        *,
        centred: bool = True,
    ) -> None:
        shown = fit_text(printable(clipped(text)), SIZE, max(width - 4, 1))
        x = left + (width - text_width(shown, SIZE)) / 2 if centred else left + PAD // 2
        stamp(image, shown, SIZE, (x, y + 5), colour)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The palette image the crosstable is encoded with: its flat colours, and every ink
    blended over each background in `SHADES` steps (the edges of the text)."""
    colours = [BACKGROUND, STRIPE, GRID, SELF]
    for ink in (TEXT, FAINT, HEADING, WIN):
        for ground in (BACKGROUND, STRIPE):
            for step in range(1, SHADES + 1):
                colours.append(_blend(ink, ground, step / SHADES))
    flat = [channel for colour in colours for channel in colour]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + flat[:3] * (256 - len(colours)))
    return palette


def _blend(ink: RGB, ground: RGB, share: float) -> RGB:
    red, green, blue = (
        round(i * share + g * (1 - share)) for i, g in zip(ink, ground, strict=True)
    )
    return red, green, blue


@lru_cache(maxsize=1024)
def _mask(text: str, size: int) -> Image.Image:
    """A `printable` text's coverage, drawn once: a table repeats the same few marks and
    numbers hundreds of times, and pasting a drawn mask is far cheaper than drawing."""
    ascent, descent = name_font(size).getmetrics()
    mask = Image.new("L", (int(text_width(text, size)) + 2, ascent + descent + 2), 0)
    draw_text(ImageDraw.Draw(mask), (0, 0), text, size, 255)
    return mask


def stamp(
    image: Image.Image, text: str, size: int, xy: tuple[float, float], colour: tuple[int, int, int]
) -> None:
    """Draw a `printable` text with its line's top left at `xy`, in `colour`."""
    if text:
        image.paste(colour, (round(xy[0]), round(xy[1])), _mask(text, size))


def _width(text: str) -> int:
    return int(text_width(printable(text), SIZE)) + 1


def describe_crosstable(table: Crosstable, *, words: Words = Words()) -> str:
    """The crosstable as sentences for screen readers: a heading, then for each player in
    the table's order a line with their rank, points and Sonneborn-Berger and their results
    against each opponent (a player whose games were annulled is named without them).

    >>> print(describe_crosstable(Crosstable((
    ...     Row("Ann", ((), (Mark.WIN,)), Fraction(1), Fraction(0), 1),
    ...     Row("Bo", ((Mark.LOSS,), ()), Fraction(0), Fraction(0), 2)))))
    Crosstable of 2 players.
    1. Ann: score 1, Sonneborn-Berger 0. Against Bo: won.
    2. Bo: score 0, Sonneborn-Berger 0. Against Ann: lost.
    """
    count = len(table.rows)
    if table.title:
        lines = [words.titled_heading.format(title=clipped(table.title), count=count)]
    else:
        lines = [words.heading.format(count=count)]
    names = [clipped(row.name) for row in table.rows]
    said = {
        Mark.WIN: words.win,
        Mark.LOSS: words.loss,
        Mark.DRAW: words.draw,
        Mark.FORFEIT_WIN: words.forfeit_win,
        Mark.FORFEIT_LOSS: words.forfeit_loss,
        None: words.pending,
    }
    for index, row in enumerate(table.rows):
        if row.rank is None:
            lines.append(words.annulled.format(name=names[index]))
            continue
        name = words.withdrawn.format(name=names[index]) if row.withdrawn else names[index]
        values = {
            "rank": row.rank,
            "name": name,
            "points": number(row.points),
            "sb": number(row.sonneborn_berger),
        }
        parts = [words.line.format_map(values)]
        for column, games in enumerate(row.results):
            if column == index or table.rows[column].rank is None:
                continue  # nothing against oneself, nor against annulled games
            results = words.separator.join(said[mark] for mark in games)
            parts.append(words.against.format(name=names[column], results=results))
        lines.append(sentences(parts))
    return "\n".join(lines)


def sentences(parts: list[str]) -> str:
    """Sentences run together: a space after one that ends in a Latin full stop, none
    after a Japanese one (。).

    >>> sentences(["Ann won.", "勝ち。", "Bo lost."])
    'Ann won. 勝ち。Bo lost.'
    """
    return "".join(part if part.endswith("。") else part + " " for part in parts).rstrip()
