"""Records built to make a reader slow, and a real record of the same size to compare with.

A hostile member does not need a valid record to stall a reader: a long run of blanks
where a pattern allows optional blanks, a token of thousands of characters, a number of
thousands of digits. `shapes(size)` builds such texts of about `size` characters, each
for the reader it aims at and as the one-line paste Discord's text box makes of it;
`legitimate(size)` a real game (up to 1,000 legal moves, padded with comments to the
size) in each format, whose reading time is the yardstick. Shared by the test of the
readers (`tests/notation/test_linear_readers.py`), the end-to-end test of hostile members
and `bench/bench_hostile_readers.py`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from rules import Game, Move
from rules.notation import write_csa, write_ki2, write_kif

#: The blanks a pattern may allow between two tokens: ASCII space, tab, ideographic space.
BLANKS = {"space": " ", "tab": "\t", "ideographic": "\u3000", "mixed": " \t\u3000"}
#: The tokens of a KIF move line with its time field (with the blank some need before
#: them), the gaps between which get long runs of blanks.
KIF_TOKENS = ("1", " ７六歩(77)", " (", "0", ":", "01", "/", "00", ":", "00", ":", "01", ")", "+")
KIF_HEAD = "手合割：平手\n先手：Ann\n後手：Bo\n手数----指手---------消費時間--\n"
CSA_HEAD = "V2.2\nN+Ann\nN-Bo\nPI\n+\n"


def _run(blank: str, size: int) -> str:
    return (blank * (size // len(blank) + 1))[:size]


def _kif_lines(size: int) -> dict[str, str]:
    """KIF texts with one long run of blanks in each gap of a move line, and the rest."""
    texts = {}
    for name, blank in BLANKS.items():
        run = _run(blank, size)
        for gap in range(len(KIF_TOKENS) + 1):
            line = "".join(
                (run if index == gap else "") + token for index, token in enumerate(KIF_TOKENS)
            ) + (run if gap == len(KIF_TOKENS) else "")
            texts[f"kif-{name}-gap{gap}"] = KIF_HEAD + line + "\n"
            # The same line cut after the run, where a pattern must give up: the worst case.
            broken = "".join(KIF_TOKENS[:gap]) + run + "x"
            texts[f"kif-{name}-gap{gap}-cut"] = KIF_HEAD + "   " + broken + "\n"
        texts[f"kif-{name}-open-time"] = KIF_HEAD + "   1 ７六歩(77) (" + run + "x\n"
        texts[f"kif-{name}-lines-of-blanks"] = KIF_HEAD + (_run(blank, 79) + "\n") * (size // 80)
        texts[f"kif-{name}-after-colon"] = "先手：" + run + "x\n"
        texts[f"kif-{name}-moves-played"] = "手数＝" + run + "x\n"
        texts[f"ki2-{name}-after-mark"] = "▲" + run + "７六歩\n"
        texts[f"ki2-{name}-between-moves"] = "▲７六歩" + run + "△３四歩" + run + "\n"
        texts[f"csa-{name}-after-sign"] = "V2.2\n+" + run + "x\n"
        texts[f"csa-{name}-after-row"] = "V2.2\nP1" + run + "x\n"
        texts[f"csa-{name}-between-items"] = CSA_HEAD + "+7776FU" + run + ",T1" + run + "\n"
        texts[f"usi-{name}-between-words"] = "position" + run + "startpos" + run + "moves 7g7f\n"
        texts[f"usi-{name}-between-moves"] = "position startpos moves 7g7f" + run + "3c3d\n"
        texts[f"sfen-{name}-between-fields"] = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9" + run + " b - 1"
    return texts


def _long_tokens(size: int) -> dict[str, str]:
    """Names, comments, numbers and tokens of `size` characters."""
    return {
        "kif-long-name": KIF_HEAD.replace("Ann", "a" * size),
        "kif-long-event": "棋戦：" + "棋" * size + "\n" + KIF_HEAD,
        "kif-long-key": "棋" * size + "：x\n" + KIF_HEAD,
        "kif-long-comment": KIF_HEAD + "*" + "c" * size + "\n   1 ７六歩(77)\n",
        "kif-long-move": KIF_HEAD + "   1 " + "歩" * size + "\n",
        "kif-long-time": KIF_HEAD + "   1 ７六歩(77) (" + "0:" * (size // 2) + "/)\n",
        "kif-many-opening-brackets": KIF_HEAD + "   1 ７六歩" + "(" * size + "\n",
        "kif-digits-move-number": KIF_HEAD + "1" * size + " ７六歩(77)\n",
        "kif-digits-moves-played": "手数＝" + "9" * size + "\n",
        "kif-digits-full-width": "手数＝" + "９" * size + "\n",
        "kif-long-summary": KIF_HEAD + "   1 ７六歩(77)\nまで" + "1" * size + "手で\n",
        "kif-many-colons": "：" * size + "\n",
        "kif-one-line": "a" * size,
        "kif-hand": "先手の持駒：" + "歩十八 " * (size // 4) + "\n",
        "ki2-long-token": "▲" + "７" * size + "\n",
        "ki2-many-marks": "▲" * size + "\n",
        "csa-long-name": "V2.2\nN+" + "n" * size + "\nPI\n+\n",
        "csa-long-info": "V2.2\n$EVENT:" + "e" * size + "\nPI\n+\n",
        "csa-commas-in-name": "V2.2\nN+" + "a," * (size // 2) + "\nPI\n+\n",
        "csa-commas-after-name": "V2.2\nN+a" + ",N-b" * (size // 4) + "\nPI\n+\n",
        "csa-long-key": "V2.2\n$" + "E" * size + "\nPI\n+\n",
        "csa-all-remaining": "V2.2\nP+" + "00AL" * (size // 4) + "\n+\n",
        "csa-hand": "V2.2\nP+" + "00FU" * (size // 4) + "\n+\n",
        "csa-rows": "V2.2\n" + "P1 *  *  *  *  *  *  *  *  * \n" * (size // 30) + "+\n",
        "csa-many-times": CSA_HEAD + "+7776FU\n" + "T1\n" * (size // 3),
        "csa-long-summary": CSA_HEAD + "'summary:" + " win" * (size // 4) + "\n",
        "usi-many-words": "position startpos moves " + "7g7f " * (size // 5),
        "usi-one-word": "position sfen " + "l" * size,
        "sfen-long-hand": "4k4/9/9/9/9/9/9/9/4K4 b " + "P" * size + " 1",
        "sfen-long-number": "4k4/9/9/9/9/9/9/9/4K4 b - " + "9" * size,
        "sfen-long-board": "l" * size + " b - 1",
    }


def _pastes(size: int) -> dict[str, str]:
    """What the paste splitter meets: the shapes above on one line, and its own."""
    texts = {}
    for name, blank in BLANKS.items():
        run = _run(blank, size)
        texts[f"paste-{name}-before-number"] = "手合割：平手" + run + "1" + run + "x"
        texts[f"paste-{name}-after-number"] = "手合割：平手 1" + run + "x"
        texts[f"paste-{name}-before-header"] = "(77)" + run + "a" + run + "x：y"
        texts[f"paste-{name}-after-sign"] = "V2.2 N+a PI +" + run + "x"
        texts[f"paste-{name}-after-row"] = "V2.2 P1" + run + "x"
        texts[f"paste-{name}-only-blanks"] = "V2.2" + run + "+"
        texts[f"paste-{name}-row-cells"] = "V2.2 P1" + (blank + "*") * (size // 2) + " x"
    texts["paste-no-colon"] = "a" * size
    texts["paste-origin-then-token"] = "(77)" + "a" * size
    texts["paste-times-in-header"] = "V2.2 N+a" + " T1" * (size // 3)
    texts["paste-names-after-turn"] = "V2.2 PI + +7776FU" + " N+a" * (size // 4)
    texts["paste-many-numbers"] = "手合割：平手" + " 1" * (size // 2)
    texts["paste-many-headers"] = " a：b" * (size // 4)
    texts["paste-many-signs"] = "V2.2" + " +" * (size // 2)
    texts["paste-commas"] = "V2.2 PI" + ",+" * (size // 2)
    texts["paste-numbers-in-comments"] = "手数----" + " *1 ７六歩" * (size // 7)
    texts["paste-marks-after-comments"] = "手合割：平手" + " *c ▲７六歩" * (size // 8)
    texts["paste-moves-played"] = " 手数＝1" * (size // 5)
    texts["paste-names"] = " 先手：a b：c" * (size // 9)
    texts["paste-diagram-parts"] = " | +- ９ ８ ７ 後手番" * (size // 16)
    return texts


def shapes(size: int) -> dict[str, str]:
    """Every hostile text of about `size` characters, by name, each also as the one-line
    paste Discord makes of it (named `...-one-line`)."""
    texts = {**_kif_lines(size), **_long_tokens(size)}
    texts.update({f"{name}-one-line": text.replace("\n", " ") for name, text in texts.items()})
    texts.update(_pastes(size))
    return texts


@functools.lru_cache(maxsize=4)
def _game(moves: int) -> Game:
    """A game of `moves` legal moves (fewer if it ends), the same in every run."""
    game, chooser = Game(), random.Random(22)
    while len(game.moves) < moves and game.outcome is None:
        legal = sorted(game.position.legal_moves(), key=lambda move: move.usi())
        chooser.shuffle(legal)
        game.push(next((move for move in legal if _goes_on(game, move)), legal[0]))
    return game


def _goes_on(game: Game, move: Move) -> bool:
    """Whether the side to move after `move` still has a move (random play mates often)."""
    after = game.position.copy()
    after.push(move)
    return bool(after.legal_moves())


@functools.lru_cache(maxsize=8)
def legitimate(size: int, format: str = "kif") -> str:
    """A real record in `format` (`kif`, `ki2`, `csa`) of about `size` characters: a game
    of 1,000 moves for 256 KiB (as many in proportion for less), each move with a comment
    of the length that brings it to the size, as annotated records are."""
    game = _game(max(20, min(1000, size * 1000 // (256 * 1024))))
    writers: dict[str, Callable[..., str]] = {"kif": write_kif, "ki2": write_ki2, "csa": write_csa}
    write = writers[format]
    bare = write(game, sente="Ann", gote="Bo")
    moves = len(game.moves)
    each = max(1, (size - len(bare)) // (moves + 1) - 3)
    line = ("良い手です。" * (each // 6 + 1))[:each]
    return write(game, sente="Ann", gote="Bo", comments={ply: [line] for ply in range(moves + 1)})
