"""No import cycles, in the Python package or between the Rust modules.

**Python** (``python/ferrochunk/``): one node per module (``a/b.py`` is ``ferrochunk.a.b``, a
package's ``__init__.py`` is the package). Every ``import`` and ``from ... import`` statement
counts, at the top of a file or inside a function or class alike (an import deferred into a
function still ties the two modules together), except those under ``if TYPE_CHECKING:``, which
never run. ``from P import n`` is an edge to ``P.n`` when that is a module, else to ``P``; when
``n`` is a name the package ``P`` only re-exports (``from .x import n`` in its ``__init__``), the
edge goes on to the module defining it. Importing ``P.m`` also runs ``P/__init__.py``, and a
package's ``__init__`` imports (re-exports) its own submodules: that is containment, not a
dependency, and neither is an edge. Any cycle fails.

**Rust** (``rust/``): one node per file module (``a/b.rs``, or ``a/b/mod.rs`` for the folder
module ``a::b``; ``lib.rs`` is the crate root). The paths counted are those starting with
``crate::``, ``super::`` or ``self::`` (or a child module's name, in its parent), in ``use``
trees (braces expanded) and anywhere in the code, tests included (comments and string
literals stripped; ``super`` inside an inline ``mod tests { }`` is the file itself). A path goes
to the deepest file module it names; a name a module only re-exports (``pub use child::Name``)
is followed to the module defining it. The check runs at every level of the module tree: the
children of each folder module (files and sub-folders, a sub-folder standing for everything
under it) are the nodes, and ``A -> B`` is an edge when anything in ``A`` names anything in
``B``. A path between a module and one of its own ancestors (a child using what its parent's
``mod.rs`` defines, a parent declaring, using or re-exporting its children) is containment and
is compared at no level, so a parent re-exporting its children is not a cycle. Any cycle among
siblings fails: file modules in a circle (as ``corpus/job`` <-> ``corpus/stream`` were), and
folders in a circle (as ``markdown/`` <-> ``structure/`` were) even when no two files are.

``RUST_ALLOWED`` lists the sibling cycles known and not yet broken, each with why.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "ferrochunk"
CRATE = ROOT / "rust"

# Sibling cycles known and not yet broken (the sorted members, as module paths, and why), for
# a cycle too big to break at once; a listed cycle that no longer exists fails too. Empty.
RUST_ALLOWED: dict[tuple[str, ...], str] = {}


# ---------------------------------------------------------------------------------------------
# Cycles in a directed graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one node (Tarjan's), as a
    path ``a -> b -> ... -> a`` through that component, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(_path_through(graph, set(c)) for c in components)


def _path_through(graph: dict[str, set[str]], members: set[str]) -> list[str]:
    """A shortest cycle from the component's first member back to itself."""
    start = min(members)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph.get(node, set()) & members):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if nxt not in previous:
                    previous[nxt] = node
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no cycle through {sorted(members)}")


def _report(found: Iterable[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " -> ".join(c) for c in found)


# ---------------------------------------------------------------------------------------------
# Python


def python_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _executed_imports(tree: ast.Module) -> Iterable[ast.Import | ast.ImportFrom]:
    """The import statements of a module, at any depth, but not under ``if TYPE_CHECKING:``."""

    def walk(node: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    yield from walk_one(other)
                continue
            yield from walk_one(child)

    def walk_one(node: ast.AST) -> Iterable[ast.Import | ast.ImportFrom]:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from walk(node)

    return walk(tree)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names (relative ones resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def python_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (see the module docstring)."""
    modules = python_modules(package)
    trees = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in modules.items()}
    # name -> (module it comes from) for the names each package's __init__ re-exports
    reexports: dict[str, dict[str, str]] = {}
    for name, path in modules.items():
        if path.name != "__init__.py":
            continue
        table = reexports.setdefault(name, {})
        for node in _executed_imports(trees[name]):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(name, True, node)
                for alias in node.names:
                    table[alias.asname or alias.name] = source

    def resolve(source: str, name: str | None, seen: int = 0) -> str | None:
        if name is not None and f"{source}.{name}" in modules:
            return f"{source}.{name}"
        if source not in modules:
            return None
        via = reexports.get(source, {}).get(name or "")
        if via is not None and via != source and seen < 10:
            return resolve(via, name, seen + 1) or source
        return source

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, tree in trees.items():
        is_package = modules[name].name == "__init__.py"
        for node in _executed_imports(tree):
            if isinstance(node, ast.Import):
                targets = [resolve(alias.name, None) for alias in node.names]
            else:
                source = _absolute(name, is_package, node)
                targets = [resolve(source, alias.name) for alias in node.names]
            for target in targets:
                if target is not None and target != name and not _contains(name, target):
                    graph[name].add(target)
    return graph


def _contains(package: str, module: str) -> bool:
    """Whether ``package`` is ``module``'s parent package or an ancestor of it."""
    return module.startswith(package + ".")


# ---------------------------------------------------------------------------------------------
# Rust

_COMMENT_OR_STRING = re.compile(
    r"//[^\n]*|/\*.*?\*/|b?r(#*)\".*?\"\1|b?\"(?:\\.|[^\"\\])*\"|b?'(?:\\.|[^'\\])'",
    re.DOTALL,
)
_USE = re.compile(r"\b(pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]+);")
_PATH = re.compile(r"(?<![\w:])(?:crate|super|self)(?:\s*::\s*\w+)+")
_INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{")


def _strip(source: str) -> str:
    """The source with comments and string/char literals blanked (lengths kept)."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return _COMMENT_OR_STRING.sub(blank, source)


def _use_paths(tree: str) -> list[list[str]]:
    """The paths of a ``use`` tree, braces expanded (``a::{b, c::d}`` is ``a::b``, ``a::c::d``),
    renames dropped (``a::b as c`` is ``a::b``)."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    paths: list[list[str]] = []

    def parse(text: str, prefix: list[str]) -> None:
        depth, start, items = 0, 0, []
        for i, ch in enumerate(text):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(text[start:i])
                start = i + 1
        items.append(text[start:])
        for item in filter(None, items):
            head, brace, rest = item.partition("{")
            parts = [p for p in head.split("::") if p]
            if brace:
                parse(rest[: rest.rindex("}")], prefix + parts)
            else:
                paths.append(prefix + parts)

    parse(tree, [])
    return paths


def rust_modules(crate: Path = CRATE) -> dict[tuple[str, ...], Path]:
    """Every file module of the crate by its path (``()`` is the crate root)."""
    modules = {}
    for path in sorted(crate.rglob("*.rs")):
        parts = list(path.relative_to(crate).with_suffix("").parts)
        if parts == ["lib"]:
            parts = []
        elif parts[-1] == "mod":
            parts.pop()
        modules[tuple(parts)] = path
    return modules


def rust_graph(crate: Path = CRATE) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    """File module -> the file modules its paths name (see the module docstring)."""
    modules = rust_modules(crate)
    sources = {m: _strip(p.read_text(encoding="utf-8")) for m, p in modules.items()}

    # (module, name) -> the path a `pub use` in that module re-exports it from
    reexports: dict[tuple[tuple[str, ...], str], list[str]] = {}
    uses: dict[tuple[str, ...], list[tuple[list[str], bool, int]]] = {}
    for module, text in sources.items():
        found = []
        for match in _USE.finditer(text):
            for path in _use_paths(match.group(2)):
                found.append((path, bool(match.group(1)), match.start()))
        uses[module] = found

    def absolute(module: tuple[str, ...], path: list[str], at: int) -> list[str] | None:
        """``path`` as seen from position ``at`` of ``module``'s file, from the crate root."""
        base = list(module) + _inline_mods(sources[module], at)
        if path and (*module, path[0]) in modules and len(base) == len(module):
            path = ["self", *path]  # `use child::Name` in the child's parent
        if not path or path[0] not in ("crate", "super", "self"):
            return None  # an outside crate or a name in scope
        if path[0] == "crate":
            return path[1:]
        rest = list(path)
        while rest and rest[0] in ("super", "self"):
            if rest.pop(0) == "super":
                base.pop()
        return base + rest

    for module, found in uses.items():
        for path, public, at in found:
            full = absolute(module, path, at)
            if public and full and path[-1] not in ("*", "self"):
                reexports[(module, path[-1])] = full

    def target(full: list[str], seen: int = 0) -> tuple[str, ...]:
        """The deepest file module ``full`` names, re-exports followed."""
        for cut in range(len(full), -1, -1):
            head = tuple(full[:cut])
            if head in modules:
                if cut < len(full) and (head, full[cut]) in reexports and seen < 10:
                    return target(reexports[(head, full[cut])] + full[cut + 1 :], seen + 1)
                return head
        return ()

    graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in modules}
    for module, text in sources.items():
        paths = []
        use_spans = []
        for match in _USE.finditer(text):
            use_spans.append(match.span())
            public = bool(match.group(1))
            for path in _use_paths(match.group(2)):
                paths.append((path, public, match.start()))
        rest = text
        for start, end in reversed(use_spans):
            rest = rest[:start] + " " * (end - start) + rest[end:]
        for match in _PATH.finditer(rest):
            paths.append((re.split(r"\s*::\s*", match.group(0)), False, match.start()))
        for path, public, at in paths:
            full = absolute(module, path, at)
            if full is None:
                continue
            dest = target(full)
            if dest == module:
                continue
            if public and dest[: len(module)] == module:
                continue  # a parent re-exporting its own child
            graph[module].add(dest)
    return graph


def _inline_mods(text: str, at: int) -> list[str]:
    """The inline ``mod name { }`` blocks enclosing position ``at``, outermost first."""
    names = []
    for match in _INLINE_MOD.finditer(text, 0, at):
        depth, i = 1, match.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if i > at:
            names.append(match.group(1))
    return names


def sibling_cycles(
    graph: dict[tuple[str, ...], set[tuple[str, ...]]],
) -> dict[tuple[str, ...], list[list[str]]]:
    """Parent module -> the cycles among its children (edges lifted to the child level)."""
    parents: dict[tuple[str, ...], dict[str, set[str]]] = {}
    for source, dests in graph.items():
        for dest in dests:
            common = 0
            while common < min(len(source), len(dest)) and source[common] == dest[common]:
                common += 1
            if common == len(source) or common == len(dest):
                continue  # to or from an ancestor: not between siblings
            parent = source[:common]
            level = parents.setdefault(parent, {})
            level.setdefault(source[common], set()).add(dest[common])
    found = {}
    for parent, level in sorted(parents.items()):
        inner = cycles(level)
        if inner:
            found[parent] = inner
    return found


def _rust_name(parent: tuple[str, ...], child: str) -> str:
    return "/".join((*parent, child))


# ---------------------------------------------------------------------------------------------
# The tests


def test_python_has_no_import_cycle():
    found = cycles(python_graph())
    assert not found, _report(found)


def test_rust_has_no_module_cycle():
    found = []
    for parent, inner in sibling_cycles(rust_graph()).items():
        for cycle in inner:
            found.append([_rust_name(parent, c) for c in cycle])
    unexpected = [c for c in found if tuple(sorted(set(c))) not in RUST_ALLOWED]
    assert not unexpected, _report(unexpected)
    gone = set(RUST_ALLOWED) - {tuple(sorted(set(c))) for c in found}
    assert not gone, f"allowed cycles no longer there (remove them from RUST_ALLOWED): {gone}"


def test_the_checks_see_a_cycle(tmp_path):
    """Both checks fail on a cycle planted on purpose (and pass without it)."""
    package = tmp_path / "ferrochunk"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .sub import thing\n")
    (package / "sub" / "__init__.py").write_text("from .a import thing\n")
    (package / "sub" / "a.py").write_text("def thing():\n    from ferrochunk.b import other\n")
    (package / "b.py").write_text("other = 1\n")
    assert cycles(python_graph(package)) == []
    (package / "b.py").write_text("from ferrochunk.sub import thing\nother = 1\n")
    assert cycles(python_graph(package)) == [["ferrochunk.b", "ferrochunk.sub.a", "ferrochunk.b"]]

    crate = tmp_path / "rust"
    (crate / "m").mkdir(parents=True)
    (crate / "n").mkdir()
    (crate / "lib.rs").write_text("mod m;\nmod n;\npub use m::A;\n")
    (crate / "m" / "mod.rs").write_text("mod a;\nmod b;\npub use a::A;\n")
    (crate / "m" / "a.rs").write_text("use super::b::B;\npub struct A;\n")
    (crate / "m" / "b.rs").write_text(
        "// use super::a::A;\npub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"
    )
    (crate / "n" / "mod.rs").write_text("pub fn f() -> crate::m::A { crate::m::A }\n")
    assert sibling_cycles(rust_graph(crate)) == {}
    # files in a circle: a -> b -> a, through the parent's re-export of A
    (crate / "m" / "b.rs").write_text("use super::A;\npub struct B;\n")
    assert sibling_cycles(rust_graph(crate)) == {("m",): [["a", "b", "a"]]}
    # folders in a circle: m/b.rs -> n, n -> m/a.rs
    (crate / "m" / "b.rs").write_text("pub struct B(crate::n::N);\n")
    (crate / "n" / "mod.rs").write_text("pub struct N;\nuse crate::m::{self, A};\n")
    assert sibling_cycles(rust_graph(crate)) == {(): [["m", "n", "m"]]}
