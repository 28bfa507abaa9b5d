"""The package reads as the data flow: no import cycles, the core never imports a surface, and
the HTTP and MCP surfaces never import each other (docs/architecture.md, "Layout").

Imports are read with `ast`, those inside functions included (a lazy import is still a
dependency); imports under `if TYPE_CHECKING:` are left out, as they never run."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "citegraph"
# A module grown past this is split by concern (the aim is 100 to 400 lines).
MAX_LINES = 520


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported(module: str, path: Path) -> set[str]:
    """The citegraph modules `module` imports at run time."""
    tree = ast.parse(path.read_text())
    skipped = {id(n) for top in ast.walk(tree) if _type_checking_only(top) for n in ast.walk(top)}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            targets.update(f"{base}.{a.name}" for a in node.names)
            if node.module:  # `from . import x` needs x, not the package that holds it
                targets.add(base)
    resolved = set()
    for target in targets:
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != module:
            resolved.add(target)
    return resolved


GRAPH = {module: _imported(module, path) for module, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    return found


def test_the_import_walk_sees_imports() -> None:
    # The walk itself: a known lazy import, a known relative one, and a TYPE_CHECKING one left out.
    assert "citegraph.surfaces.http" in GRAPH["citegraph.surfaces.cli.service"]
    assert "citegraph.retrieve.context" in GRAPH["citegraph.scope"]
    assert "citegraph.workspace" not in GRAPH["citegraph.scope"]


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_the_core_never_imports_a_surface() -> None:
    core = {m: deps for m, deps in GRAPH.items() if not m.startswith("citegraph.surfaces")}
    offending = {
        m: sorted(d for d in deps if d.startswith("citegraph.surfaces")) for m, deps in core.items()
    }
    assert {m: d for m, d in offending.items() if d} == {}


def test_http_and_mcp_never_import_each_other() -> None:
    http = {m for m in GRAPH if m.startswith("citegraph.surfaces.http")}
    mcp = {m for m in GRAPH if m.startswith("citegraph.surfaces.mcp")}
    assert mcp and http
    assert {(m, d) for m in mcp for d in GRAPH[m] if d in http} == set()
    assert {(m, d) for m in http for d in GRAPH[m] if d in mcp} == set()


def test_modules_stay_small() -> None:
    sizes = {m: len(p.read_text().splitlines()) for m, p in MODULES.items()}
    assert {m: n for m, n in sizes.items() if n > MAX_LINES} == {}


_CYPHER = re.compile(
    r"\b(MATCH|MERGE|UNWIND|DETACH DELETE)\b|\bCALL db\.|\bCREATE (INDEX|VECTOR|\()"
)


def test_all_cypher_lives_in_the_named_query_modules() -> None:
    """Every Cypher string is a named constant in store/queries/, where it can be read whole
    and checked for user text (always a parameter, never part of the string)."""
    elsewhere = []
    for module, path in MODULES.items():
        if module.startswith("citegraph.store.queries"):
            continue
        if module.startswith("citegraph.graphq."):
            continue  # the Text2Cypher gate names keywords (MATCH, MERGE...) to judge them
        for node in ast.walk(ast.parse(path.read_text())):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and _CYPHER.search(text):
                elsewhere.append(f"{module}:{node.lineno}: {text[:50]!r}")
    assert elsewhere == []
    queries = [m for m in MODULES if m.startswith("citegraph.store.queries.")]
    assert len(queries) >= 4
