"""A fake USI engine for tests: it speaks enough USI for the bot and misbehaves on cue.

Each `go` takes the next word of the plan file named by `FAKE_ENGINE_PLAN` (shared by
every process started from it, so a plan spans restarts) and answers accordingly:

- `legal`: the first legal move (the default once the plan is empty), score cp 0;
- `illegal`: a well-formed move that is not legal here;
- `garbage`: a bestmove line that is no move at all;
- `hang`: never answers;
- `flood`: prints short `info` lines without end, and never a `bestmove`;
- `crash`: prints an `info` line, then exits mid-search;
- `shut`: closes its output mid-search and lives on;
- `twice`: answers, then answers again (`bestmove 9i9h`) as it reads its next command:
  a stray answer that must answer no later search;
- `gate`: answers once the file `gate` beside the plan exists (a search held open);
- `resign`: `bestmove resign`.

Every process appends its pid to `FAKE_ENGINE_PIDS` (if set) as it starts, and every `go`
appends its position line to `FAKE_ENGINE_SEEN` (if set): the order searches were served.

Run it with the tests' Python: `python tests/support/fake_engine.py`.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rules import Game, Move


def _next_step() -> str:
    plan = os.environ.get("FAKE_ENGINE_PLAN")
    if not plan:
        return "legal"
    path = Path(plan)
    words = path.read_text().split() if path.exists() else []
    if not words:
        return "legal"
    path.write_text(" ".join(words[1:]))
    return words[0]


def _game(words: list[str]) -> Game:
    """The position of a `position sfen ... [moves ...]` or `position startpos ...` line."""
    if words[1] == "startpos":
        sfen, rest = None, words[2:]
    else:
        sfen, rest = " ".join(words[2:6]), words[6:]
    moves = rest[1:] if rest and rest[0] == "moves" else []
    return Game(sfen, moves)


def _illegal_move(game: Game) -> str:
    """A well-formed move that is not legal in the game's position."""
    for file in range(1, 10):
        for rank in "abcdefghi":
            for target in ("a", "e", "i"):
                usi = f"{file}{rank}{file}{target}"
                if target != rank and not game.position.is_legal(Move.from_usi(usi)):
                    return usi
    raise AssertionError("every move is legal")


def _note(variable: str, line: str) -> None:
    name = os.environ.get(variable)
    if name:
        with Path(name).open("a") as notes:
            notes.write(line + "\n")


#: The stray answer of `twice`.
STRAY = "9i9h"


def main() -> None:
    _note("FAKE_ENGINE_PIDS", str(os.getpid()))
    game = Game()
    position = ""
    stray = False
    for raw in sys.stdin:
        words = raw.split()
        if stray:
            print(f"bestmove {STRAY}", flush=True)
            stray = False
        if not words:
            continue
        command = words[0]
        if command == "usi":
            print("id name FakeEngine")
            print("option name Threads type spin default 4 min 1 max 64")
            print("option name Skill Level type spin default 20 min -20 max 20")
            print("usiok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            game = _game(words)
            position = raw.strip()
        elif command == "go":
            _note("FAKE_ENGINE_SEEN", position)
            step = _next_step()
            if step == "crash":
                print("info depth 1 score cp 0", flush=True)
                sys.exit(3)
            if step == "hang":
                time.sleep(3600)
            if step == "shut":
                sys.stdout.close()
                os.close(1)
                time.sleep(3600)
            if step == "flood":
                while True:
                    sys.stdout.write("info nodes 1\n" * 1000)
                    sys.stdout.flush()
            if step == "gate":
                gate = Path(os.environ["FAKE_ENGINE_PLAN"]).with_name("gate")
                while not gate.exists():
                    time.sleep(0.01)
            stray = step == "twice"
            if step == "garbage":
                print("bestmove hello-world", flush=True)
            elif step == "illegal":
                print(f"bestmove {_illegal_move(game)}", flush=True)
            elif step == "resign":
                print("info depth 1 score mate -1\nbestmove resign", flush=True)
            else:
                move = game.position.legal_moves()[0].usi()
                print(f"info depth 1 score cp 0 pv {move}\nbestmove {move}", flush=True)
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
