"""No circle of imports in the pure layers: `rules` and `render` read from the bottom up.

Every import counts wherever it is written, a lazy one inside a function or one only for
types included: each is a module that cannot be read, changed or tested without the other.
The packages a module lives in are left out, since Python imports them first whatever the
module imports, so no change could remove that edge.
"""

from __future__ import annotations

from collections.abc import Mapping, Set

from tests.architecture.test_layers import all_modules, imports_of

PURE = ("rules", "render")


def import_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Each module of `packages` and the modules of `packages` it imports."""
    modules = {m for m in all_modules() if m.split(".")[0] in packages}
    return {
        module: {
            imported
            for imported in imports_of(module)
            if imported in modules and imported != module and not module.startswith(imported + ".")
        }
        for module in modules
    }


def _reached(graph: Mapping[str, Set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for imported in graph[todo.pop()]:
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def circles(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others, sorted."""
    reached = {module: _reached(graph, module) for module in graph}
    groups = {
        tuple(sorted(other for other in reached[module] if module in reached[other]))
        for module in graph
        if module in reached[module]
    }
    return sorted(list(group) for group in groups)


def test_the_pure_layers_import_in_no_circle() -> None:
    graph = import_graph(PURE)
    assert len(graph) > 30
    assert circles(graph) == []


def test_the_circle_finder_finds_lazy_and_long_circles() -> None:
    """The check above can fail: a circle through three modules is found, a module that only
    leads into it is not part of it, and an import inside a function is an edge."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    graph = import_graph(PURE)
    assert "rules.notation" in graph["render.describe"]  # imported inside a function
    assert "rules.notation" not in graph["rules.notation.kif"]  # its own package
