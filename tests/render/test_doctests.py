"""The examples in the render modules' docstrings are run as tests, so that an example a
reader copies says what the code does (a wording change must change its example too)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import render

MODULES = sorted(info.name for info in pkgutil.walk_packages(render.__path__, "render."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_bracket_text_has_its_example() -> None:
    assert doctest.testmod(importlib.import_module("render.bracket_model")).attempted > 0
