"""A knockout's bracket: an image (PNG bytes) and the same bracket as plain sentences for
screen readers.

The image has a column a round, titled by the round's name (the caller's words: Round 1,
Quarterfinals, Semifinals, Final), and a box a pairing: each player's seed, name and
rating and their marks in the pairing's games (▲ sente, △ gote; 1 won, 0 lost, = drawn and
replayed, 指し直し; an empty mark for a game being played). The winner's name is in the
winner's ink and the line from the box to the next round is drawn in it too; a bye's box
says so. Rounds not paired yet are drawn with the players already through, and the
champion stands right of the final once there is one.

The caller words the bracket (`Words`), so the same drawing serves every language; the
English words are the default. Names go through `clipped` and `printable` like every
label and are shortened to their box, so any name is safe; the number of players is
bounded (`MAX_PLAYERS`), and each box shows at most `MAX_MARKS` games, which bounds the
image.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from PIL import Image, ImageDraw

from .crosstable import (
    BACKGROUND,
    FAINT,
    GRID,
    HEADING,
    STRIPE,
    TEXT,
    WIN,
    encoded,
    sentences,
    stamp,
)
from .fonts import ELLIPSIS, clipped, fit_text, printable, text_width

#: The most players a bracket draws (32 pairings in its first round).
MAX_PLAYERS = 64
#: The most games a box shows marks for: the last ones, which decided the pairing.
MAX_MARKS = 3
#: The most games the text names one by one (the last ones; the others are counted).
MAX_SAID = 4

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


class Side(Enum):
    """Which player of a pairing: the upper (better) seed or the other."""

    UPPER = "upper"
    LOWER = "lower"


class Outcome(Enum):
    """How a game of a pairing went."""

    UPPER_WON = "upper"
    LOWER_WON = "lower"
    REPLAYED = "replayed"  # sennichite or impasse: counts for nobody, played again
    PLAYING = "playing"


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a pairing: whether the upper player had sente, and how it went."""

    upper_sente: bool
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the bracket shows them: name, seed (1 the highest rating), the
    rating they were seeded by (None: none shown), and whether they withdrew (their name
    is drawn fainter; the text says so)."""

    name: str
    seed: int
    rating: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pairing of a round: the upper player, the other (None: the upper has a bye),
    its games in the order played, and its winner once decided."""

    upper: Player
    lower: Player | None = None
    games: tuple[Game, ...] = ()
    winner: Side | None = None

    def winning(self) -> Player | None:
        """The player going through, if decided (a bye's player always is).

        >>> Pairing(Player("Ann", 1)).winning()
        Player(name='Ann', seed=1, rating=None, withdrawn=False)
        """
        if self.lower is None:
            return self.upper
        if self.winner is None:
            return None
        return self.upper if self.winner is Side.UPPER else self.lower


@dataclass(frozen=True, slots=True)
class Bracket:
    """The rounds paired so far, the first one's pairings in bracket order (winners of
    adjacent pairings meet next), each later round half the one before.

    >>> Bracket(((Pairing(Player("Ann", 1), Player("Bo", 2)),),)).depth
    1
    """

    rounds: tuple[tuple[Pairing, ...], ...]
    title: str | None = None

    def __post_init__(self) -> None:
        first = len(self.rounds[0]) if self.rounds else 0
        if not 1 <= first <= MAX_PLAYERS // 2 or first & (first - 1):
            raise ValueError(f"a bracket's first round has 1 to {MAX_PLAYERS // 2} pairings")
        if len(self.rounds) > self.depth:
            raise ValueError("a bracket has no round after its final")
        for number, pairings in enumerate(self.rounds):
            if len(pairings) != first >> number:
                raise ValueError("each round of a bracket has half the pairings of the last")
            for pairing in pairings:
                if pairing.lower is None and pairing.winner is Side.LOWER:
                    raise ValueError("a bye is won by its only player")

    @property
    def depth(self) -> int:
        """How many rounds the bracket has in all (the final is the last)."""
        return (2 * len(self.rounds[0])).bit_length() - 1

    @property
    def players(self) -> int:
        """How many players entered (a bye's empty place is nobody)."""
        return sum(1 if p.lower is None else 2 for p in self.rounds[0])

    def champion(self) -> Player | None:
        """The final's winner, once there is one."""
        if len(self.rounds) < self.depth:
            return None
        return self.rounds[-1][0].winning()


@dataclass(frozen=True, slots=True)
class Words:
    """How a bracket is worded: its rounds' names, its labels and the sentences of its text
    version (placeholders in braces). The bot passes the reader's language's."""

    round: str = "Round {number}"
    quarterfinals: str = "Quarterfinals"
    semifinals: str = "Semifinals"
    final: str = "Final"
    champion: str = "Champion"
    bye: str = "bye"
    heading: str = "Knockout bracket of {count} players."
    titled_heading: str = "{title}: knockout bracket of {count} players."
    round_line: str = "{round}:"
    player: str = "{name} (seed {seed})"
    withdrawn_player: str = "{name} (seed {seed}, withdrawn)"
    pairing: str = "{upper} against {lower}"
    with_games: str = "{pairing}: {games}."
    without_games: str = "{pairing}."
    had_bye: str = "{name} has a bye."
    won_sente: str = "{name} won game {number} with sente"
    won_gote: str = "{name} won game {number} with gote"
    replayed: str = "game {number} drawn and replayed"
    playing: str = "game {number} under way"
    more_games: str = "{count} games before"
    advances: str = "{name} goes through."
    crowned: str = "{name} is the champion."
    separator: str = ", "


def round_name(words: Words, number: int, depth: int) -> str:
    """A round's name, counted from the final back: the last three are named, the others
    numbered from the first.

    >>> [round_name(Words(), n, 5) for n in range(1, 6)]
    ['Round 1', 'Round 2', 'Quarterfinals', 'Semifinals', 'Final']
    """
    left = depth - number
    if left == 0:
        return words.final
    if left == 1:
        return words.semifinals
    if left == 2:
        return words.quarterfinals
    return words.round.format(number=number)


def render_bracket(bracket: Bracket, *, words: Words = Words()) -> bytes:
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


def describe_bracket(bracket: Bracket, *, words: Words = Words()) -> str:
    """The bracket as sentences for screen readers: a heading and the champion, then each
    round paired so far, the latest first (alt text cut at Discord's length loses the
    early rounds, not the final), each pairing's players, games and who goes through.

    >>> print(describe_bracket(Bracket(((Pairing(Player("Ann", 1), Player("Bo", 2),
    ...     (Game(False, Outcome.REPLAYED), Game(True, Outcome.UPPER_WON)), Side.UPPER),),))))
    Knockout bracket of 2 players.
    Ann is the champion.
    Final:
    Ann (seed 1) against Bo (seed 2): game 1 drawn and replayed, Ann won game 2 with sente. \
Ann goes through.
    """
    count = bracket.players
    if bracket.title:
        lines = [words.titled_heading.format(title=clipped(bracket.title), count=count)]
    else:
        lines = [words.heading.format(count=count)]
    champion = bracket.champion()
    if champion is not None:
        lines.append(words.crowned.format(name=clipped(champion.name)))
    for number in reversed(range(len(bracket.rounds))):
        name = round_name(words, number + 1, bracket.depth)
        lines.append(words.round_line.format(round=name))
        lines.extend(_said(pairing, words) for pairing in bracket.rounds[number])
    return "\n".join(lines)


def _said(pairing: Pairing, words: Words) -> str:
    if pairing.lower is None:
        return words.had_bye.format(name=clipped(pairing.upper.name))
    upper, lower = _named(pairing.upper, words), _named(pairing.lower, words)
    paired = words.pairing.format(upper=upper, lower=lower)
    names = {Side.UPPER: clipped(pairing.upper.name), Side.LOWER: clipped(pairing.lower.name)}
    games = []
    skipped = max(0, len(pairing.games) - MAX_SAID)
    if skipped:
        games.append(words.more_games.format(count=skipped))
    for number, game in enumerate(pairing.games[skipped:], start=skipped + 1):
        games.append(_game(game, number, names, words))
    if games:
        parts = [words.with_games.format(pairing=paired, games=words.separator.join(games))]
    else:
        parts = [words.without_games.format(pairing=paired)]
    winner = pairing.winning()
    if winner is not None:
        parts.append(words.advances.format(name=clipped(winner.name)))
    return sentences(parts)


def _named(player: Player, words: Words) -> str:
    said = words.withdrawn_player if player.withdrawn else words.player
    return said.format(name=clipped(player.name), seed=player.seed)


def _game(game: Game, number: int, names: dict[Side, str], words: Words) -> str:
    if game.outcome is Outcome.REPLAYED:
        return words.replayed.format(number=number)
    if game.outcome is Outcome.PLAYING:
        return words.playing.format(number=number)
    side = Side.UPPER if game.outcome is Outcome.UPPER_WON else Side.LOWER
    sente = game.upper_sente == (side is Side.UPPER)
    said = words.won_sente if sente else words.won_gote
    return said.format(name=names[side], number=number)
