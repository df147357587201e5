"""The package's shape, measured from its own source: no import cycles, no private names used across
modules, one definition per public class name, and a benchmark's name in at most four source files."""
from __future__ import annotations

import ast
import collections
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "evidencechain"
BENCHMARKS = ("summedits", "cliff", "halueval", "ragtruth_qa")
MAX_FILES_PER_BENCHMARK = 4


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _imports(name: str) -> list[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for every import in a module, deferred ones too."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.append((full, None) if full in MODULES else (base, alias.name))
    return [(m, n) for m, n in found if m in MODULES and m != name]


GRAPH = {name: sorted({m for m, _ in _imports(name)}) for name in MODULES}


def _folder(name: str) -> str:
    """A module's folder: the first sub-package under evidencechain/, or the module itself at the top."""
    parts = name.split(".")
    if len(parts) > 2 or (len(parts) == 2 and MODULES[name].name == "__init__.py"):
        return ".".join(parts[:2])
    return name


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def module_cycles() -> list[list[str]]:
    return _cycles(GRAPH)


def folder_cycles() -> list[list[str]]:
    folders = collections.defaultdict(set)
    for name, targets in GRAPH.items():
        for target in targets:
            if _folder(name) != _folder(target):
                folders[_folder(name)].add(_folder(target))
    return _cycles({k: sorted(v) for k, v in folders.items()})


def private_imports() -> list[str]:
    return sorted(f"{name} imports {n} from {m}" for name in MODULES for m, n in _imports(name)
                  if n and n.startswith("_") and not n.startswith("__"))


def duplicate_classes() -> dict[str, list[str]]:
    where = collections.defaultdict(list)
    for name, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where[node.name].append(name)
    return {cls: mods for cls, mods in where.items() if len(mods) > 1}


def benchmark_files() -> dict[str, list[str]]:
    out = {}
    for bench in BENCHMARKS:
        pattern = re.compile(rf"\b{bench}\b", re.IGNORECASE)
        out[bench] = sorted(n for n, p in MODULES.items() if pattern.search(p.read_text(encoding="utf-8")))
    return out


def test_no_module_cycles():
    assert module_cycles() == []


def test_no_folder_cycles():
    assert folder_cycles() == []


def test_no_private_names_imported_across_modules():
    assert private_imports() == []


def test_each_public_class_defined_once():
    assert duplicate_classes() == {}


@pytest.mark.parametrize("bench", BENCHMARKS)
def test_benchmark_named_in_few_files(bench):
    files = benchmark_files()[bench]
    assert len(files) <= MAX_FILES_PER_BENCHMARK, files


def test_the_checks_can_fail():
    assert _cycles({"a": ["b"], "b": ["a"], "c": []}) == [["a", "b"]]
    assert _cycles({"a": ["b"], "b": []}) == []


if __name__ == "__main__":
    print("module cycles:", module_cycles())
    print("folder cycles:", folder_cycles())
    print("private imports:", *private_imports(), sep="\n  ")
    print("classes defined twice:", duplicate_classes())
    for bench, files in benchmark_files().items():
        print(f"{bench}: {len(files)} files", files)
