"""A knockout's bracket: an image (PNG bytes) and the same bracket as plain sentences for
screen readers.

The image has a column a round, titled by the round's name (the caller's words: Round 1,
Quarterfinals, Semifinals, Final), and a box a pairing: each player's seed, name and
rating and their marks in the pairing's games (▲ sente, △ gote; 1 won, 0 lost, = drawn and
replayed, 指し直し; an empty mark for a game being played). The winner's name is in the
winner's ink and the line from the box to the next round is drawn in it too; a bye's box
says so. Rounds not paired yet are drawn with the players already through, and the
champion stands right of the final once there is one.

The bracket's values and its text for screen readers are in `render.bracket_model` (and
named here too). The caller words the bracket (`Words`), so the same drawing serves every
language; the English words are the default. Names go through `clipped` and `printable`
like every label and are shortened to their box, so any name is safe; the number of
players is bounded (`MAX_PLAYERS`), and each box shows at most `MAX_MARKS` games, which
bounds the image.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from .bracket_model import (
    ENGLISH,
    MAX_PLAYERS,
    Bracket,
    Game,
    Outcome,
    Pairing,
    Player,
    Side,
    Words,
    describe_bracket,
    round_name,
)
from .crosstable import (
    BACKGROUND,
    FAINT,
    GRID,
    HEADING,
    STRIPE,
    TEXT,
    WIN,
    encoded,
    stamp,
)
from .fonts import ELLIPSIS, clipped, fit_text, printable, text_width

__all__ = [
    "MAX_PLAYERS",
    "Bracket",
    "Game",
    "Layout",
    "Outcome",
    "Pairing",
    "Player",
    "Side",
    "Words",
    "describe_bracket",
    "forget_fitted_names",
    "render_bracket",
    "round_name",
]

#: The most games a box shows marks for: the last ones, which decided the pairing.
MAX_MARKS = 3

SIZE = 14
TITLE_SIZE = 18
LINE = 24
BOX = 2 * LINE
SLOT = BOX + 10
PAD = 14
HEADING_HEIGHT = 28
SEED_WIDTH = 28
NAME_WIDTH = 150
RATING_WIDTH = 44
MARK_WIDTH = 30
GAP = 36
CHAMPION_WIDTH = 190
#: Fewer pixels than any drawn character takes at `SIZE` (a full stop, a thin space).
NARROWEST = 2
#: Two pixels wide, so a line is seen beside the grid's one-pixel rules.
LINE_WIDTH = 2


def render_bracket(bracket: Bracket, *, words: Words = ENGLISH) -> bytes:
    """The bracket as a PNG.

    >>> png = render_bracket(Bracket(((Pairing(Player("Ann", 1), Player("Bo", 2)),),)))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    return encoded(Layout(bracket, words).image())


class Layout:
    """Where every round's column and every pairing's box of a bracket's image is, and the
    drawing of each."""

    def __init__(self, bracket: Bracket, words: Words) -> None:
        self.bracket, self.words = bracket, words
        shown = [min(MAX_MARKS, len(p.games)) for r in bracket.rounds for p in r]
        self.marks = max(1, *shown)
        self.box_width = SEED_WIDTH + NAME_WIDTH + RATING_WIDTH + self.marks * MARK_WIDTH
        self.column = self.box_width + GAP
        self.top = PAD + (TITLE_SIZE + 16 if bracket.title else 0) + HEADING_HEIGHT
        first = len(bracket.rounds[0])
        self.width = PAD + bracket.depth * self.column + CHAMPION_WIDTH + PAD
        self.height = self.top + first * SLOT + PAD

    def box(self, number: int, index: int) -> tuple[int, int, int, int]:
        """The box (left, top, right, bottom) of the `index`-th pairing of round `number`
        (both from 0): centred on the slots of the first round's pairings it gathers."""
        span = 1 << number
        centre = self.top + SLOT * (span * index) + SLOT * span // 2
        left = PAD + number * self.column
        return left, centre - BOX // 2, left + self.box_width, centre + BOX // 2

    def line_y(self, number: int, index: int, side: Side) -> int:
        """The middle height of a box's upper or lower player's line."""
        top = self.box(number, index)[1]
        return top + LINE // 2 + (LINE if side is Side.LOWER else 0)

    def image(self) -> Image.Image:
        """The bracket drawn."""
        image = Image.new("RGB", (self.width, self.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        bracket = self.bracket
        if bracket.title:
            title = fit_text(printable(clipped(bracket.title)), TITLE_SIZE, self.width - 2 * PAD)
            stamp(image, title, TITLE_SIZE, (PAD, PAD), TEXT)
        heading_top = self.top - HEADING_HEIGHT
        draw.rectangle([PAD, heading_top, self.width - PAD, self.top - 6], fill=STRIPE)
        for number in range(bracket.depth):
            name = round_name(self.words, number + 1, bracket.depth)
            left = PAD + number * self.column
            _text(image, name, left, self.box_width, heading_top + 3, HEADING, centred=True)
            for index in range(len(bracket.rounds[0]) >> number):
                self._pairing(image, draw, number, index)
        self._champion(image, draw, heading_top)
        return image

    def _players(self, number: int, index: int) -> tuple[Player | None, Player | None]:
        """Who is in a box: its pairing's players, or for a round not paired yet, the
        winners of the two pairings before it that are decided."""
        rounds = self.bracket.rounds
        if number < len(rounds):
            pairing = rounds[number][index]
            return pairing.upper, pairing.lower
        return self._through(number - 1, 2 * index), self._through(number - 1, 2 * index + 1)

    def _through(self, number: int, index: int) -> Player | None:
        rounds = self.bracket.rounds
        return rounds[number][index].winning() if number < len(rounds) else None

    def _pairing(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, number: int, index: int
    ) -> None:
        left, top, right, bottom = self.box(number, index)
        rounds = self.bracket.rounds
        pairing = rounds[number][index] if number < len(rounds) else None
        upper, lower = self._players(number, index)
        draw.rectangle([left, top, right, bottom], fill=BACKGROUND, outline=GRID)
        draw.line([(left, top + LINE), (right, top + LINE)], fill=GRID)
        winner = None if pairing is None else pairing.winning()
        for side, player in ((Side.UPPER, upper), (Side.LOWER, lower)):
            y = top + (LINE if side is Side.LOWER else 0)
            if player is None:
                if pairing is not None and side is Side.LOWER:
                    _text(image, self.words.bye, left + SEED_WIDTH, NAME_WIDTH, y, FAINT)
                continue
            faint = winner is not None or player.withdrawn
            ink = WIN if player == winner else FAINT if faint else TEXT
            _text(image, str(player.seed), left, SEED_WIDTH - 4, y, FAINT, right=True)
            _text(image, player.name, left + SEED_WIDTH, NAME_WIDTH, y, ink)
            if player.rating is not None:
                rating_left = left + SEED_WIDTH + NAME_WIDTH
                _text(
                    image, str(player.rating), rating_left, RATING_WIDTH - 4, y, FAINT, right=True
                )
            if pairing is not None:
                self._marks(image, pairing, side, right - self.marks * MARK_WIDTH, y)
        if number + 1 < self.bracket.depth:
            self._onward(draw, number, index, winner is not None)

    def _marks(self, image: Image.Image, pairing: Pairing, side: Side, left: int, y: int) -> None:
        for slot, game in enumerate(pairing.games[-MAX_MARKS:]):
            sente = game.upper_sente == (side is Side.UPPER)
            mark, ink = _mark(game.outcome, side)
            x = left + slot * MARK_WIDTH
            _text(image, ("▲" if sente else "△") + mark, x, MARK_WIDTH, y, ink, centred=True)

    def _onward(self, draw: ImageDraw.ImageDraw, number: int, index: int, decided: bool) -> None:
        """The line from a box to its place in the next round's box: in the winner's ink
        once the pairing is decided."""
        _, top, right, bottom = self.box(number, index)
        start = (top + bottom) // 2
        side = Side.UPPER if index % 2 == 0 else Side.LOWER
        end = self.line_y(number + 1, index // 2, side)
        middle = right + GAP // 2
        ink, width = (WIN, LINE_WIDTH) if decided else (GRID, 1)
        next_left = right + GAP
        draw.line(
            [(right + 1, start), (middle, start), (middle, end), (next_left, end)],
            fill=ink,
            width=width,
            joint="curve",
        )

    def _champion(self, image: Image.Image, draw: ImageDraw.ImageDraw, heading_top: int) -> None:
        depth = self.bracket.depth
        left = PAD + depth * self.column
        _text(
            image, self.words.champion, left, CHAMPION_WIDTH, heading_top + 3, HEADING, centred=True
        )
        final = self.box(depth - 1, 0)
        centre = (final[1] + final[3]) // 2
        champion = self.bracket.champion()
        ink, width = (WIN, LINE_WIDTH) if champion is not None else (GRID, 1)
        draw.line([(final[2] + 1, centre), (left, centre)], fill=ink, width=width)
        draw.rectangle(
            [left, centre - LINE // 2, left + CHAMPION_WIDTH, centre + LINE // 2], outline=GRID
        )
        if champion is not None:
            _text(image, champion.name, left + 4, CHAMPION_WIDTH - 4, centre - LINE // 2, WIN)


def _mark(outcome: Outcome, side: Side) -> tuple[str, tuple[int, int, int]]:
    if outcome is Outcome.PLAYING:
        return "", FAINT
    if outcome is Outcome.REPLAYED:
        return "=", FAINT
    won = (outcome is Outcome.UPPER_WON) == (side is Side.UPPER)
    return ("1", WIN) if won else ("0", TEXT)


def _text(
    image: Image.Image,
    label: str,
    left: int,
    width: int,
    y: int,
    colour: tuple[int, int, int],
    *,
    centred: bool = False,
    right: bool = False,
) -> None:
    """A label fitted into `width` pixels from `left` on the line from `y`."""
    shown = _fitted(clipped(label), max(width - 8, 1))
    spare = width - text_width(shown, SIZE)
    x = left + spare / 2 if centred else left + spare if right else left + 4
    stamp(image, shown, SIZE, (x, y + (LINE - SIZE) // 2 - 3), colour)


@lru_cache(maxsize=1024)
def _fitted(label: str, width: int) -> str:
    """A `clipped` label shortened to `width` pixels, once per label: a player is drawn in
    every round they reach. No drawn character is narrower than `NARROWEST` pixels, so
    the characters past `width / NARROWEST` are cut before measuring (a long name's every
    measurement is then of a box's worth of characters, not of `clipped`'s 200)."""
    text = printable(label)
    most = width // NARROWEST + 1
    if len(text) > most:
        text = text[:most] + ELLIPSIS
    return fit_text(text, SIZE, width)


def forget_fitted_names() -> None:
    """Forget every label fitted before (a benchmark's or a test's first drawing).

    >>> forget_fitted_names()
    """
    _fitted.cache_clear()
