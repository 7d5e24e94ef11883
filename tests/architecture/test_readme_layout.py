"""The README's "Where each command lives" table is true: every command the bot publishes
has a row, and every file a row names exists, so a newcomer who opens it lands on the
command's code, its rules and its wording."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ui import text

ROOT = Path(__file__).resolve().parents[2]
#: The table's columns after the first, and the folder each names its files under.
FOLDERS = ("bot/cogs", "bot/services", "bot/ui/text")


def command_rows() -> list[list[str]]:
    """The cells of the table's rows, the header and the rule left out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("Where each command lives", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def test_every_command_has_a_row() -> None:
    named: set[str] = set()
    for cells in command_rows():
        named |= set(re.findall(r"`/([a-z_]+)`", cells[0]))
    assert sorted(set(text.COMMANDS) - named) == []
    assert sorted(named - set(text.COMMANDS)) == []


def test_every_file_a_row_names_exists() -> None:
    rows = command_rows()
    assert len(rows) >= 15
    missing = []
    for cells in rows:
        assert len(cells) == 1 + len(FOLDERS), cells
        for folder, cell in zip(FOLDERS, cells[1:], strict=True):
            for name in re.findall(r"`([a-z_/]+\.py)`", cell):
                if not (ROOT / folder / name).is_file():
                    missing.append(f"{folder}/{name}")
    assert missing == []
