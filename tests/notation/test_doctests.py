"""The examples in the notation modules' docstrings are run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "rules.notation", "rules.notation.bod", "rules.notation.charsets", "rules.notation.common",
    "rules.notation.csa", "rules.notation.files", "rules.notation.jsa", "rules.notation.kif",
    "rules.notation.kif_paste", "rules.notation.parse",
    "rules.notation.paste", "rules.notation.records", "rules.notation.resolve",
    "rules.notation.write",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    if name != "rules.notation.resolve":
        assert result.attempted > 0
