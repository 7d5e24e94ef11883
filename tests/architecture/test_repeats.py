"""Repeated code in the product stays rare: the same six lines written twice are a rule
kept in two places, and the second copy is the one nobody updates.

The count is of places in `rules/`, `render/` and `bot/` where six or more significant
lines (blank lines, comments, imports and lone brackets passed over, white space folded)
stand again, word for word, somewhere else. It may fall; it may not grow. A run that has
to stay (two tables that only look alike, say) is counted in `ALLOWED`, with its reason
in the code beside it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("rules", "render", "bot")
RUN = 6
#: Pairs of places that repeat six lines or more in the product today; lower it as
#: repeats are made one, never raise it. The one left is a signature, not logic: a move's
#: `play` and `preview` take the same arguments.
ALLOWED = 1

_PASSED_OVER = re.compile(r"(#.*|(from\s+\S+\s+)?import\s.*|[()\[\]{},:]*)")

Place = tuple[str, int]


def significant_lines(text: str) -> list[tuple[int, str]]:
    """The lines that count, with their line numbers, white space folded."""
    kept = []
    in_import = False
    for number, line in enumerate(text.splitlines(), start=1):
        folded = " ".join(line.split())
        if in_import:
            in_import = not folded.startswith(")")
        elif folded.startswith(("import ", "from ")) and folded.endswith("("):
            in_import = True
        elif not _PASSED_OVER.fullmatch(folded):
            kept.append((number, folded))
    return kept


def repeated_places(files: dict[str, str], run: int = RUN) -> set[tuple[Place, Place]]:
    """Pairs of places (file, first line) whose next `run` significant lines are the same,
    one pair for each longest stretch two places share."""
    windows: dict[tuple[str, ...], list[tuple[str, int]]] = defaultdict(list)
    lines = {name: significant_lines(text) for name, text in files.items()}
    for name, kept in lines.items():
        for index in range(len(kept) - run + 1):
            windows[tuple(line for _, line in kept[index : index + run])].append((name, index))
    pairs: set[tuple[tuple[str, int], tuple[str, int]]] = set()
    for places in windows.values():
        for first, (name_a, index_a) in enumerate(places):
            for name_b, index_b in places[first + 1 :]:
                if name_a == name_b and abs(index_a - index_b) < run:
                    continue
                pairs.add(((name_a, index_a), (name_b, index_b)))
    # A stretch longer than `run` gives a window at every index: keep its first.
    starts = {((a, i), (b, j)) for (a, i), (b, j) in pairs if ((a, i - 1), (b, j - 1)) not in pairs}
    return {((a, lines[a][i][0]), (b, lines[b][j][0])) for (a, i), (b, j) in starts}


def product_files() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def test_repeated_code_does_not_grow() -> None:
    found = sorted(repeated_places(product_files()))
    shown = [f"{a}:{i} ~ {b}:{j}" for (a, i), (b, j) in found]
    assert len(found) <= ALLOWED, "\n".join(shown)


def test_the_count_finds_a_repeat_and_passes_over_what_does_not_count() -> None:
    body = "\n".join(f"x{n} = compute({n}, limit)" for n in range(7))
    files = {
        "a.py": f"import os\n\n{body}\n",
        "b.py": f"from x import y\n# a comment\n\n    {body.replace(chr(10), chr(10) + '    ')}\n",
        "c.py": body.replace("limit", "other"),
        "d.py": "from m import (\n    a,\n    b,\n    c,\n    d,\n    e,\n    f,\n)\n(\n)\n",
        "e.py": "from n import (\n    a,\n    b,\n    c,\n    d,\n    e,\n    f,\n)\n(\n)\n",
    }
    assert repeated_places(files) == {(("a.py", 3), ("b.py", 4))}
