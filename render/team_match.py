"""A team match's scoreboard: an image (PNG bytes) and the same score as plain sentences
for screen readers.

The image has the match's score in its title (the first team's name, both teams' game
points, the second team's name), a line saying who leads or who has won, then a row a
board: its number, the first team's player, their results in the board's two games, the
game points of each player, the second team's player's results and name; under the boards
each team's total game points and board points, and who sits out.

The caller words the scoreboard (`Words`: the headings and the sentences of the text), so
the same drawing serves every language; the English words are the default. Names go
through `clipped` and `printable` like every label and are shortened to their column, so
any name is safe; the number of boards is bounded (`MAX_BOARDS`), which bounds the image.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from PIL import Image, ImageDraw

from .crosstable import (
    BACKGROUND,
    FAINT,
    GRID,
    HEADING,
    STRIPE,
    TEXT,
    WIN,
    Mark,
    encoded,
    number,
    sentences,
    stamp,
)
from .fonts import clipped, fit_text, printable, text_width

#: The most boards a scoreboard draws (a team's most players, `MAX_TEAM` of the service).
MAX_BOARDS = 64

SIZE = 15
TITLE_SIZE = 20
ROW = 28
PAD = 14
NAME_MIN, NAME_MAX = 110, 220
TITLE_MAX = 760


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board: the first team's player and the second's, each one's result in the
    board's two games (None for a game not over), whether the first team's player had
    sente in the first game, and each one's game points."""

    first: str
    second: str
    first_marks: tuple[Mark | None, Mark | None]
    second_marks: tuple[Mark | None, Mark | None]
    first_sente: bool
    first_points: Fraction
    second_points: Fraction


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """A team match as it stands. `leader` is 0 for the first team and 1 for the second
    (None when level); once `decided`, it is the winner (None: the match is drawn).
    `remaining` counts the games not over; `sitting_out` names who plays no board."""

    first_team: str
    second_team: str
    lines: tuple[BoardLine, ...]
    first_points: Fraction
    second_points: Fraction
    first_boards: Fraction
    second_boards: Fraction
    leader: int | None
    decided: bool
    remaining: int
    sitting_out: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= len(self.lines) <= MAX_BOARDS:
            raise ValueError(f"a scoreboard has 1 to {MAX_BOARDS} boards")
        if self.leader not in (None, 0, 1):
            raise ValueError("the leader is the first team (0) or the second (1)")


@dataclass(frozen=True, slots=True)
class Words:
    """How a scoreboard is worded: its headings and the sentences of its text version
    (placeholders in braces). The bot passes the reader's language's."""

    board: str = "Board"
    game: str = "Game {game}"
    points: str = "Points"
    game_points: str = "Game points"
    board_points: str = "Board points"
    heading: str = "Team match: {first} v {second}."
    totals: str = (
        "Game points: {first} {first_points}, {second} {second_points}. "
        "Board points: {first} {first_boards}, {second} {second_boards}."
    )
    leads: str = "{team} leads (games left: {remaining})."
    level: str = "The teams are level (games left: {remaining})."
    won: str = "{team} has won the match."
    won_early: str = "{team} has won the match (games left: {remaining})."
    drawn: str = "The match is drawn."
    drawn_early: str = "The match is drawn whatever happens (games left: {remaining})."
    board_line: str = "Board {board}: {first} against {second}, {first_points} to {second_points}."
    game_line: str = "Game {game}, {sente} with Sente: {result}."
    won_by: str = "{name} won"
    won_by_forfeit: str = "{name} won by forfeit"
    drew: str = "drawn"
    lost_by_both: str = "lost by both"
    pending: str = "not played yet"
    sitting_out: str = "Sitting out: {names}."
    separator: str = ", "


def status(board: Scoreboard, words: Words = Words()) -> str:
    """The sentence saying who leads, or how the match ended.

    >>> line = BoardLine("A", "B", (Mark.WIN, None), (Mark.LOSS, None), True, Fraction(1),
    ...                  Fraction(0))
    >>> status(Scoreboard("Red", "Blue", (line,), Fraction(1), Fraction(0), Fraction(0),
    ...                   Fraction(0), 0, False, 1))
    'Red leads (games left: 1).'
    """
    teams = (clipped(board.first_team), clipped(board.second_team))
    remaining = board.remaining
    if board.decided:
        if board.leader is None:
            return words.drawn_early.format(remaining=remaining) if remaining else words.drawn
        team = teams[board.leader]
        if remaining:
            return words.won_early.format(team=team, remaining=remaining)
        return words.won.format(team=team)
    if board.leader is None:
        return words.level.format(remaining=remaining)
    return words.leads.format(team=teams[board.leader], remaining=remaining)


def describe_scoreboard(board: Scoreboard, *, words: Words = Words()) -> str:
    """The scoreboard as sentences for screen readers: the teams, the totals and who
    leads, then a line a board with each game's result, then who sits out.

    >>> line = BoardLine("Ann", "Bo", (Mark.WIN, Mark.DRAW), (Mark.LOSS, Mark.DRAW), False,
    ...                  Fraction(3, 2), Fraction(1, 2))
    >>> text = describe_scoreboard(Scoreboard("Red", "Blue", (line,), Fraction(3, 2),
    ...     Fraction(1, 2), Fraction(1), Fraction(0), 0, True, 0))
    >>> print(text.replace(". ", ".\\n"))
    Team match: Red v Blue.
    Game points: Red 1½, Blue ½.
    Board points: Red 1, Blue 0.
    Red has won the match.
    Board 1: Ann against Bo, 1½ to ½.
    Game 1, Bo with Sente: Ann won.
    Game 2, Ann with Sente: drawn.
    """
    first, second = clipped(board.first_team), clipped(board.second_team)
    head = [
        words.heading.format(first=first, second=second),
        words.totals.format(
            first=first,
            second=second,
            first_points=number(board.first_points),
            second_points=number(board.second_points),
            first_boards=number(board.first_boards),
            second_boards=number(board.second_boards),
        ),
        status(board, words),
    ]
    lines = [sentences(head)]
    for index, line in enumerate(board.lines, start=1):
        names = clipped(line.first), clipped(line.second)
        parts = [
            words.board_line.format(
                board=index,
                first=names[0],
                second=names[1],
                first_points=number(line.first_points),
                second_points=number(line.second_points),
            )
        ]
        for game in (1, 2):
            sente = names[0] if line.first_sente == (game == 1) else names[1]
            result = _result(line, game - 1, names, words)
            parts.append(words.game_line.format(game=game, sente=sente, result=result))
        lines.append(sentences(parts))
    if board.sitting_out:
        out = words.separator.join(clipped(name) for name in board.sitting_out)
        lines.append(words.sitting_out.format(names=out))
    return "\n".join(lines)


def _result(line: BoardLine, game: int, names: tuple[str, str], words: Words) -> str:
    first, second = line.first_marks[game], line.second_marks[game]
    if first is None:
        return words.pending
    if first is Mark.DRAW:
        return words.drew
    if first is Mark.FORFEIT_LOSS and second is Mark.FORFEIT_LOSS:
        return words.lost_by_both
    winner = names[0] if first in (Mark.WIN, Mark.FORFEIT_WIN) else names[1]
    forfeit = Mark.FORFEIT_WIN in (first, second)
    return (words.won_by_forfeit if forfeit else words.won_by).format(name=winner)


def render_scoreboard(board: Scoreboard, *, words: Words = Words()) -> bytes:
    """The scoreboard as a PNG.

    >>> line = BoardLine("Ann", "Bo", (Mark.WIN, None), (Mark.LOSS, None), True, Fraction(1),
    ...                  Fraction(0))
    >>> png = render_scoreboard(Scoreboard("Red", "Blue", (line,), Fraction(1), Fraction(0),
    ...                                    Fraction(0), Fraction(0), 0, False, 1))
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    # The crosstable's inks on its grounds: its palette holds every colour drawn here.
    return encoded(Layout(board, words).image())


class Layout:
    """Where every column and row of a scoreboard's image is, and the drawing of each."""

    def __init__(self, board: Scoreboard, words: Words) -> None:
        self.board, self.words = board, words
        count = len(board.lines)
        names = [
            printable(clipped(name)) for line in board.lines for name in (line.first, line.second)
        ]
        teams = [printable(clipped(name)) for name in (board.first_team, board.second_team)]
        widest = max(text_width(name, SIZE) for name in [*names, *teams])
        self.name_width = int(min(NAME_MAX, max(NAME_MIN, widest + PAD)))
        self.board_width = max(_width(label) for label in [words.board, f"{count}"]) + PAD
        self.game_width = max(_width(words.game.format(game=game)) for game in (1, 2)) + PAD
        figures = [
            number(value)
            for line in board.lines
            for value in (line.first_points, line.second_points)
        ]
        figures += [number(board.first_points), number(board.second_points), words.points]
        self.points_width = max(_width(figure) for figure in figures) + PAD
        self.left = PAD
        self.first_left = self.left + self.board_width
        self.games_left = self.first_left + self.name_width
        self.points_left = self.games_left + 2 * self.game_width
        self.second_games_left = self.points_left + 2 * self.points_width
        self.second_left = self.second_games_left + 2 * self.game_width
        table_right = self.second_left + self.name_width
        self.width = max(table_right + PAD, min(TITLE_MAX, self.title_width()) + 2 * PAD)
        self.top = PAD + TITLE_SIZE + 12 + ROW
        rows = count + 3 + (1 if board.sitting_out else 0)  # heading, boards, two totals
        self.height = self.top + ROW * rows + PAD

    def title(self) -> str:
        board = self.board
        first, second = (printable(clipped(name)) for name in (board.first_team, board.second_team))
        return f"{first}  {number(board.first_points)} – {number(board.second_points)}  {second}"

    def title_width(self) -> int:
        return int(text_width(self.title(), TITLE_SIZE)) + 1

    def row_top(self, row: int) -> int:
        """The top of table row `row` (0: the headings, 1 to n: the boards, then the totals)."""
        return self.top + ROW * row

    def game_cell(self, line: int, side: int, game: int) -> tuple[int, int, int, int]:
        """The box of board `line`'s (from 0) `game`-th (0, 1) result of the first
        (`side` 0) or second (1) team's player."""
        left = (self.games_left if side == 0 else self.second_games_left) + game * self.game_width
        top = self.row_top(line + 1)
        return left, top, left + self.game_width, top + ROW

    def image(self) -> Image.Image:
        """The scoreboard drawn."""
        image = Image.new("RGB", (self.width, self.height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        board, words = self.board, self.words
        title = fit_text(self.title(), TITLE_SIZE, self.width - 2 * PAD)
        centre = (self.width - text_width(title, TITLE_SIZE)) / 2
        stamp(image, title, TITLE_SIZE, (centre, PAD), TEXT)
        said = fit_text(printable(clipped(status(board, words))), SIZE, self.width - 2 * PAD)
        centre = (self.width - text_width(said, SIZE)) / 2
        stamp(image, said, SIZE, (centre, PAD + TITLE_SIZE + 10), FAINT)
        count = len(board.lines)
        right = self.second_left + self.name_width
        for row in range(1, count + 3):
            if row % 2 == 0:
                draw.rectangle(
                    [self.left, self.row_top(row), right, self.row_top(row + 1)], fill=STRIPE
                )
        self._headings(image)
        for index, line in enumerate(board.lines):
            self._line(image, index, line)
        self._totals(image, count + 1)
        for row in range(count + 4):
            draw.line([(self.left, self.row_top(row)), (right, self.row_top(row))], fill=GRID)
        edges = [self.left, self.first_left, self.games_left, self.points_left]
        edges += [
            self.points_left + self.points_width,
            self.second_games_left,
            self.second_left,
            right,
        ]
        for x in edges:
            bottom = (
                self.row_top(count + 1)
                if x in (self.first_left, self.second_left)
                else self.row_top(count + 3)
            )
            draw.line([(x, self.top), (x, bottom)], fill=GRID)
        if board.sitting_out:
            names = words.separator.join(clipped(name) for name in board.sitting_out)
            text = fit_text(
                printable(clipped(words.sitting_out.format(names=names))),
                SIZE,
                self.width - 2 * PAD,
            )
            stamp(image, text, SIZE, (self.left, self.row_top(count + 3) + 5), FAINT)
        return image

    def _headings(self, image: Image.Image) -> None:
        words, y = self.words, self.row_top(0)
        self._label(image, words.board, (self.left, self.board_width), y, HEADING)
        self._label(
            image,
            self.board.first_team,
            (self.first_left, self.name_width),
            y,
            HEADING,
            centred=False,
        )
        self._label(
            image,
            self.board.second_team,
            (self.second_left, self.name_width),
            y,
            HEADING,
            centred=False,
        )
        for side_left in (self.games_left, self.second_games_left):
            for game in (0, 1):
                label = words.game.format(game=game + 1)
                self._label(
                    image, label, (side_left + game * self.game_width, self.game_width), y, HEADING
                )
        for side in (0, 1):
            self._label(
                image,
                words.points,
                (self.points_left + side * self.points_width, self.points_width),
                y,
                HEADING,
            )

    def _line(self, image: Image.Image, index: int, line: BoardLine) -> None:
        y = self.row_top(index + 1)
        self._label(image, str(index + 1), (self.left, self.board_width), y, FAINT)
        self._label(image, line.first, (self.first_left, self.name_width), y, TEXT, centred=False)
        self._label(image, line.second, (self.second_left, self.name_width), y, TEXT, centred=False)
        for side, marks in enumerate((line.first_marks, line.second_marks)):
            for game, mark in enumerate(marks):
                if mark is not None:
                    left, top, _, _ = self.game_cell(index, side, game)
                    colour = WIN if mark in (Mark.WIN, Mark.FORFEIT_WIN) else TEXT
                    self._label(image, mark.value, (left, self.game_width), top, colour)
        for side, points in enumerate((line.first_points, line.second_points)):
            self._label(
                image,
                number(points),
                (self.points_left + side * self.points_width, self.points_width),
                y,
                TEXT,
            )

    def _totals(self, image: Image.Image, row: int) -> None:
        board, words = self.board, self.words
        for offset, (label, values) in enumerate(
            (
                (words.game_points, (board.first_points, board.second_points)),
                (words.board_points, (board.first_boards, board.second_boards)),
            )
        ):
            y = self.row_top(row + offset)
            self._label(
                image,
                label,
                (self.left, self.board_width + self.name_width),
                y,
                HEADING,
                centred=False,
            )
            for side, value in enumerate(values):
                self._label(
                    image,
                    number(value),
                    (self.points_left + side * self.points_width, self.points_width),
                    y,
                    TEXT,
                )

    @staticmethod
    def _label(
        image: Image.Image,
        text: str,
        column: tuple[int, int],
        y: int,
        colour: tuple[int, int, int],
        *,
        centred: bool = True,
    ) -> None:
        """Draw `text` in the row whose top is `y`, in `column` (its left and its width):
        centred, or from the left."""
        left, width = column
        shown = fit_text(printable(clipped(text)), SIZE, max(width - (4 if centred else PAD), 1))
        x = left + (width - text_width(shown, SIZE)) / 2 if centred else left + PAD // 2
        stamp(image, shown, SIZE, (x, y + 5), colour)


def _width(text: str) -> int:
    return int(text_width(printable(clipped(text)), SIZE)) + 1
