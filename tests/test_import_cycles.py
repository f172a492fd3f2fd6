"""No import cycles in the project's packages, imports inside functions and under TYPE_CHECKING included.

A cycle is a strongly connected component of more than one module of grimp's import graph (a package
counts as its `__init__`, so a submodule importing its package back closes one), or a module importing
itself.
"""
from __future__ import annotations

import sys

import pytest

grimp = pytest.importorskip("grimp", reason="the dev extra installs grimp")

PACKAGES = ("corruption_envs", "training")


def import_cycles(package: str) -> list[list[str]]:
    """The cycles among `package`'s modules, each as its sorted module names, largest first."""
    graph = grimp.build_graph(package, cache_dir=None)
    imports = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    cycles = [sorted(c) for c in strongly_connected(imports) if len(c) > 1]
    cycles += [[m] for m, targets in imports.items() if m in targets]
    return sorted(cycles, key=lambda c: (-len(c), c))


def strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of a directed graph, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(edges.get(target, ()))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def describe(cycles: list[list[str]]) -> str:
    return "\n".join(" <-> ".join(c) for c in cycles)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycles(package):
    cycles = import_cycles(package)
    assert not cycles, (
        f"{package} has {len(cycles)} import cycle(s); cut the edge against the package's direction "
        f"(docs/architecture.md):\n{describe(cycles)}"
    )


def write_package(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_check_finds_a_cycle_hidden_in_a_function(tmp_path, monkeypatch):
    # views -> rules at the top, rules -> views inside a function; tables is imported but in no cycle
    write_package(tmp_path, {
        "cyclic_toy/__init__.py": "",
        "cyclic_toy/tables.py": "SIZE = 3\n",
        "cyclic_toy/rules.py": "from . import tables\n\n\ndef render():\n    from .views import show\n\n"
                               "    return show()\n",
        "cyclic_toy/views.py": "from .rules import tables\n\n\ndef show():\n    return tables.SIZE\n",
        "cyclic_toy/selfish.py": "from . import selfish\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert import_cycles("cyclic_toy") == [["cyclic_toy.rules", "cyclic_toy.views"], ["cyclic_toy.selfish"]]
    finally:
        sys.modules.pop("cyclic_toy", None)


def test_an_acyclic_package_passes(tmp_path, monkeypatch):
    write_package(tmp_path, {
        "acyclic_toy/__init__.py": "from .views import show\n",
        "acyclic_toy/rules.py": "SIZE = 3\n",
        "acyclic_toy/views.py": "from .rules import SIZE\n\n\ndef show():\n    return SIZE\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert import_cycles("acyclic_toy") == []
    finally:
        sys.modules.pop("acyclic_toy", None)


def test_strongly_connected_on_a_long_chain():
    # a ring of 5000 modules is one component; recursion would overflow the stack
    ring = {f"m{i}": [f"m{(i + 1) % 5000}"] for i in range(5000)}
    assert [sorted(c) for c in strongly_connected(ring)] == [sorted(ring)]
