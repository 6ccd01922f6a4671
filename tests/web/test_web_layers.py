"""The web package's own layering: no import cycle among its modules, function-level imports counted too."""
from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"


def web_imports() -> dict[str, set[str]]:
    """{module: the web modules it imports, anywhere in its body}."""
    modules = {p.stem for p in WEB.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in WEB.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("deckcheck.web."):
                found.add((node.module or "").split(".")[2])
        graph[path.stem] = found & modules - {path.stem}
    return graph


def cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A path of imports from `start` back to itself, if there is one."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(graph[node]):
            if nxt == start:
                return path + [start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, path + [nxt]))
    return None


def test_no_import_cycle_within_web() -> None:
    graph = web_imports()
    assert "check" in graph and "facts" in graph
    cycles = [c for m in sorted(graph) if (c := cycle_from(graph, m))]
    assert not cycles, " ; ".join(" -> ".join(c) for c in cycles)


def test_no_web_function_over_a_complexity_of_20() -> None:
    """ruff's C901 (McCabe) over web/: each branchy function split into small ones (cardface.field_rows was 32)."""
    import subprocess
    import sys
    ruff = Path(sys.executable).with_name("ruff")
    done = subprocess.run([str(ruff), "check", "--no-cache", "--select", "C901", "--config",
                           "lint.mccabe.max-complexity=20", str(WEB)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
