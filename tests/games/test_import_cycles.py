"""No import cycles among the ``games`` modules (architecture.md, "Many games": services,
tasks, deadlines, notifications, webhooks, announce and disputes once imported each
other in a circle). grimp builds the import graph from the source, imports inside
functions included, so a cycle hidden behind a late import is found too."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

PACKAGE = "games"


def _cycles(graph: grimp.ImportGraph, package: str = PACKAGE) -> list[list[str]]:
    """For every module that imports another which leads back to it: the chain."""
    found: dict[frozenset[str], list[str]] = {}
    for importer in sorted(graph.modules):
        if importer.startswith(f"{package}.migrations"):
            continue
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if not imported.startswith(package) or imported == importer:
                continue
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                found.setdefault(frozenset(back), [importer, *back])
    return list(found.values())


def test_no_games_module_imports_itself_through_others() -> None:
    graph = grimp.build_graph(PACKAGE, exclude_type_checking_imports=True)
    cycles = _cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_check_finds_a_cycle_hidden_behind_a_late_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check works: two modules that import each other, one of them inside a
    function (as games.services once imported games.tasks), are found."""
    package = tmp_path / "cyclic"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "writer.py").write_text("def act() -> None:\n    from cyclic import tasks\n")
    (package / "tasks.py").write_text("from cyclic import writer\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclic", cache_dir=None)
    assert _cycles(graph, "cyclic") == [["cyclic.tasks", "cyclic.writer", "cyclic.tasks"]]
