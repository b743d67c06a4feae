"""The architecture, checked on the source: imports flow one way and modules stay small.

Every ``.py`` file under ``theorems/``, ``verifiers/``, ``reports/`` and ``dpverify/`` (the
public API; the three subpackages there are links to the folders above) is parsed, and every
``import`` in it — at module level or inside a function — becomes an edge between modules named
``dpverify.*``. The tests fail on

- an import cycle between modules (a strongly connected component of the import graph);
- an import upwards between the layers of ``dpverify.theorems``
  (``errors, display`` < ``core, claims, params, index, refs, symbolic, limits`` < ``ctx`` <
  ``values`` < ``numerics`` < ``formulas`` < the family packages < ``dpverify.theorems``, the
  registry), or from ``dpverify.theorems`` into ``dpverify.verifiers`` or
  ``dpverify.reports``, or from ``dpverify.verifiers`` into ``dpverify.reports``;
- an import of one family package from another;
- an import of a family package from ``dpverify.verifiers`` or ``dpverify.reports`` (they use
  the registry ``dpverify.theorems`` and the layers below the families);
- a source module longer than :data:`MAX_LINES` lines.

The families are whatever lies under ``dpverify.theorems`` outside the layers, found anew at
every run. Violations that were in the tree when these tests were written are listed in
:data:`KNOWN_VIOLATIONS_TO_REMOVE` and :data:`KNOWN_LONG_MODULES_TO_SPLIT`, to be emptied; every
other violation fails, and all of them are reported in one message.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "dpverify"
SOURCE_FOLDERS = ("theorems", "verifiers", "reports")
MAX_LINES = 600

THEOREMS = f"{PACKAGE}.theorems"
VERIFIERS = f"{PACKAGE}.verifiers"
REPORTS = f"{PACKAGE}.reports"
# layers of dpverify.theorems below the families, lowest first; a name covers its submodules
THEOREM_LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "display"),
    ("core", "claims", "params", "index", "refs", "symbolic", "limits"),
    ("ctx",),
    # exact parameter values as context numbers (they read ctx's Interval), used by formulas
    ("values",),
    ("numerics",),
    ("formulas",),
)
FAMILY_RANK = len(THEOREM_LAYERS)
REGISTRY_RANK = FAMILY_RANK + 1

# Imports that broke a rule when this test was written, to be removed (then the entry). An entry
# ``"A -> B"`` allows the import of module B by module A; ``X*`` stands for X and every module
# inside it, so that an entry survives the split of a module into a package. A listed import is
# taken out of the graph before cycles are sought: list the import that a cycle should lose.
KNOWN_VIOLATIONS_TO_REMOVE: tuple[str, ...] = (
    # empty: every import of the package follows the layers
)

# Source files longer than MAX_LINES lines when this test was written (paths from the checkout
# root), to be split by topic (then the entry removed).
KNOWN_LONG_MODULES_TO_SPLIT: tuple[str, ...] = ()


# ------------------------------------------------------------------------------------------
# the import graph


def source_modules() -> dict[str, Path]:
    """Module name -> file, for every source file of the package (links not followed)."""
    modules: dict[str, Path] = {}
    for folder in SOURCE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((PACKAGE, *parts))] = path
    for path in sorted((ROOT / PACKAGE).glob("*.py")):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        modules[name] = path
    return modules


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is a source module (None: not ours)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The source modules that ``module`` imports, with the line of each import statement."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _package_of(module, path)
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            # ``from pkg import sub`` imports the submodule ``pkg.sub`` when there is one
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                       for a in node.names]
        for target in targets:
            known = _known(target, modules)
            if known is not None and known != module:
                yield known, node.lineno


def import_graph() -> tuple[dict[str, dict[str, int]], dict[str, Path]]:
    modules = source_modules()
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for module, path in modules.items():
        for target, line in imports_of(module, path, modules):
            graph[module].setdefault(target, line)
    return graph, modules


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
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
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def _cycle_in(component: list[str], graph: dict[str, dict[str, int]]) -> list[str]:
    """One cycle through the first module of a component (breadth-first, so a short one)."""
    members = set(component)
    start = component[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child in members and child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    return component  # unreachable for a strongly connected component


# ------------------------------------------------------------------------------------------
# the layers


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def theorems_rank(module: str) -> int | None:
    """The layer of a module of dpverify.theorems (None: not one)."""
    if module == THEOREMS:
        return REGISTRY_RANK
    if not _inside(module, THEOREMS):
        return None
    top = module[len(THEOREMS) + 1:].split(".")[0]
    for rank, names in enumerate(THEOREM_LAYERS):
        if top in names:
            return rank
    return FAMILY_RANK


def _family(module: str) -> str:
    return module[len(THEOREMS) + 1:].split(".")[0]


def rule_broken(src: str, dst: str) -> str | None:
    """Which rule the import ``src -> dst`` breaks (None: allowed)."""
    src_rank, dst_rank = theorems_rank(src), theorems_rank(dst)
    if src_rank is not None:
        if _inside(dst, VERIFIERS) or _inside(dst, REPORTS):
            return "dpverify.theorems imports neither verifiers nor reports"
        if dst_rank is not None and dst_rank > src_rank:
            return "upward import between the layers of dpverify.theorems"
        if src_rank == dst_rank == FAMILY_RANK and _family(src) != _family(dst):
            return "a family package imports another family (shared code goes to a layer below)"
    if _inside(src, VERIFIERS) and _inside(dst, REPORTS):
        return "dpverify.verifiers does not import dpverify.reports"
    if (_inside(src, VERIFIERS) or _inside(src, REPORTS)) and dst_rank == FAMILY_RANK:
        return "verifiers and reports import the registry, never a family package"
    return None


def _matches(module: str, pattern: str) -> bool:
    if pattern.endswith("*"):
        return _inside(module, pattern[:-1])
    return module == pattern


def _allowed(src: str, dst: str) -> bool:
    for entry in KNOWN_VIOLATIONS_TO_REMOVE:
        a, _, b = (part.strip() for part in entry.partition("->"))
        if _matches(src, a) and _matches(dst, b):
            return True
    return False


def layer_violations(graph: dict[str, dict[str, int]],
                     modules: dict[str, Path]) -> list[tuple[str, str, str]]:
    """``(src, dst, message)`` for every import that breaks a layer rule."""
    out = []
    for src in sorted(graph):
        for dst, line in sorted(graph[src].items()):
            rule = rule_broken(src, dst)
            if rule is not None:
                where = f"{modules[src].relative_to(ROOT)}:{line}"
                out.append((src, dst, f"{src} -> {dst} ({where}): {rule}"))
    return out


def cycle_violations(graph: dict[str, dict[str, int]]) -> list[tuple[list[str], str]]:
    """``(cycle, message)`` for every import cycle."""
    out = []
    for component in strongly_connected(graph):
        cycle = _cycle_in(component, graph)
        text = " -> ".join(cycle)
        more = "" if len(component) == len(cycle) - 1 else \
            f" (the cycle's component has {len(component)} modules: {', '.join(component)})"
        out.append((cycle, f"import cycle: {text}{more}"))
    return out


# ------------------------------------------------------------------------------------------
# the tests


def test_the_graph_sees_the_package() -> None:
    graph, modules = import_graph()
    assert {THEOREMS, f"{THEOREMS}.core", f"{THEOREMS}.ctx", VERIFIERS, REPORTS,
            PACKAGE} <= set(modules)
    assert f"{THEOREMS}.errors" in graph[f"{THEOREMS}.core"] or any(
        _inside(d, THEOREMS) for d in graph[f"{THEOREMS}.core"])
    families = {m for m in modules if theorems_rank(m) == FAMILY_RANK}
    assert families, "no family module found under dpverify.theorems"


def test_the_rules_catch_planted_imports() -> None:
    family = f"{THEOREMS}.some_family"
    assert rule_broken(f"{THEOREMS}.core", f"{THEOREMS}.ctx") is not None
    assert rule_broken(f"{THEOREMS}.ctx.arb", f"{THEOREMS}.numerics.pld") is not None
    assert rule_broken(f"{THEOREMS}.numerics.pld", family) is not None
    assert rule_broken(family, THEOREMS) is not None
    assert rule_broken(family, f"{VERIFIERS}.numeric") is not None
    assert rule_broken(f"{VERIFIERS}.dispatch", f"{REPORTS}.cli") is not None
    assert rule_broken(f"{REPORTS}.html.curves", f"{family}.gauss") is not None
    assert rule_broken(f"{VERIFIERS}.interval", f"{THEOREMS}.ctx") is None
    assert rule_broken(f"{REPORTS}.cli", THEOREMS) is None
    assert rule_broken(family, f"{THEOREMS}.formulas.gauss") is None
    assert rule_broken(THEOREMS, f"{THEOREMS}.core") is None
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert _cycle_in(["a", "b", "c"], graph) == ["a", "b", "c", "a"]
    assert _matches(f"{THEOREMS}.mechanisms.gauss", f"{THEOREMS}.mechanisms*")
    assert not _matches(f"{THEOREMS}.core", THEOREMS)


def test_the_allow_lists_are_well_formed() -> None:
    for entry in KNOWN_VIOLATIONS_TO_REMOVE:
        a, arrow, b = (part.strip() for part in entry.partition("->"))
        assert arrow and a.startswith(PACKAGE) and b.startswith(PACKAGE), entry
    for path in KNOWN_LONG_MODULES_TO_SPLIT:
        assert path.endswith(".py") and not path.startswith("/"), path


def test_no_import_cycles_and_no_import_against_the_layers() -> None:
    graph, modules = import_graph()
    # a listed import is taken out of the graph: the cycles it closes are known too
    remaining = {src: {dst: line for dst, line in targets.items() if not _allowed(src, dst)}
                 for src, targets in graph.items()}
    problems = [message for _, message in cycle_violations(remaining)]
    problems += [message for _, _, message in layer_violations(remaining, modules)]
    assert not problems, (f"{len(problems)} architecture violations (see the module docstring "
                          "of tests/test_architecture.py):\n" + "\n".join(problems))


def _line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_modules_stay_small() -> None:
    long = sorted(f"{p.relative_to(ROOT)} has {_line_count(p)} lines"
                  for p in source_modules().values()
                  if _line_count(p) > MAX_LINES
                  and str(p.relative_to(ROOT)) not in KNOWN_LONG_MODULES_TO_SPLIT)
    assert not long, (f"{len(long)} modules over {MAX_LINES} lines (split them by topic):\n"
                      + "\n".join(long))
