"""Refusals that come with choices: the member named no game and has several, or wrote a
move that fits several. They carry the service's values to choose from, so they live
apart from `errors`, which the values' own modules import.
"""

from __future__ import annotations

from rules import Sentence

from .errors import ServiceError
from .play.game import MoveText
from .play.summaries import GameSummary


class ChooseGame(ServiceError):
    """The user has several games and did not say which; `games` lists them."""

    def __init__(self, sentence: Sentence, games: list[GameSummary]) -> None:
        super().__init__(sentence)
        self.games = games


class AmbiguousMove(ServiceError):
    """Several legal moves fit the text. `promotion_choice` is (promote, do not promote)
    when that is the only question, so the Discord layer can offer buttons that replay
    the answer in game `game_id` at `ply` in the position marked `position_mark` (and
    only there)."""

    def __init__(
        self,
        sentence: Sentence,
        candidates: list[MoveText],
        promotion_choice: tuple[MoveText, MoveText] | None = None,
        *,
        game_id: int,
        ply: int,
        position_mark: str,
    ) -> None:
        super().__init__(sentence)
        self.candidates = candidates
        self.promotion_choice = promotion_choice
        self.game_id = game_id
        self.ply = ply
        self.position_mark = position_mark
