"""A knockout's bracket as values (its rounds, pairings, players and games) and as plain
sentences for screen readers; `render.bracket` draws it.

The caller words the bracket (`Words`: the rounds' names, the labels and the sentences of
the text), so the same bracket serves every language; the English words are the default.
The number of players is bounded (`MAX_PLAYERS`), and the text names at most `MAX_SAID`
games of a pairing, counting the ones before.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .crosstable import sentences
from .fonts import clipped

#: The most players a bracket draws (32 pairings in its first round).
MAX_PLAYERS = 64
#: The most games the text names one by one (the last ones; the others are counted).
MAX_SAID = 4


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
    won_sente: str = "{name} won Game {number} with Sente"
    won_gote: str = "{name} won Game {number} with Gote"
    replayed: str = "Game {number} drawn and replayed"
    playing: str = "Game {number} under way"
    more_games: str = "{count} games before"
    advances: str = "{name} goes through."
    crowned: str = "{name} is the champion."
    separator: str = ", "


#: The English words, every text's default.
ENGLISH = Words()


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


def describe_bracket(bracket: Bracket, *, words: Words = ENGLISH) -> str:
    """The bracket as sentences for screen readers: a heading and the champion, then each
    round paired so far, the latest first (alt text cut at Discord's length loses the
    early rounds, not the final), each pairing's players, games and who goes through.

    >>> print(describe_bracket(Bracket(((Pairing(Player("Ann", 1), Player("Bo", 2),
    ...     (Game(False, Outcome.REPLAYED), Game(True, Outcome.UPPER_WON)), Side.UPPER),),))))
    Knockout bracket of 2 players.
    Ann is the champion.
    Final:
    Ann (seed 1) against Bo (seed 2): Game 1 drawn and replayed, Ann won Game 2 with Sente. \
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
