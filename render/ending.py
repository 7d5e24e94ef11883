"""How a finished game is drawn: the result instead of a turn pill, and what decided it.

The bot words the result in the reader's language and passes it here as plain text;
the renderer only decides where it goes and how it is marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Color


@dataclass(frozen=True, slots=True)
class Ending:
    """The end of the game as the final board shows it.

    - `result`: one short line (e.g. `まで83手で先手の勝ち`), drawn on a red pill in the
      caption's place; no side is shown to move any more.
    - `winner`: whose name gets the winner's ring; None for a draw or an aborted game.
    - `mate`: the last move gave mate; its squares are marked as the mating move (a dark
      red frame on the last-move colour), not as an ordinary last move.
    - `resigned`: the side that resigned; its king's cell is greyed, as a king laid down.

    >>> Ending("Sente wins", winner=Color.SENTE, mate=True)
    Ending(result='Sente wins', winner=<Color.SENTE: 0>, mate=True, resigned=None)
    """

    result: str
    winner: Color | None = None
    mate: bool = False
    resigned: Color | None = None

    def __post_init__(self) -> None:
        if not self.result.strip():
            raise ValueError("an ending needs a result to show")
        if self.resigned is not None and self.resigned is self.winner:
            raise ValueError("the side that resigned cannot be the winner")
