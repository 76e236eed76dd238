"""The package's shape (issue #29, docs/architecture.md): the folders say the layers, so
the top level holds only the entry points and the settings; no class grows past 400
lines and no function takes more than 8 parameters (options travel as one frozen
``config.Settings``, not through long signatures)."""

from __future__ import annotations

import ast
from pathlib import Path

import hundred_server

PACKAGE = Path(hundred_server.__file__).parent
TOP_LEVEL = {"__init__.py", "__main__.py", "cli.py", "config.py"}
# research: the optional research environments (issue #32, docs/research.md).
LAYERS = {"ai", "core", "games", "io", "protocol", "research", "store"}
MAX_CLASS_LINES = 400
MAX_PARAMETERS = 8


def trees() -> dict[str, ast.Module]:
    return {
        str(path.relative_to(PACKAGE)): ast.parse(path.read_text(), str(path))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Every parameter but ``self``/``cls``, counting ``*args`` and ``**kwargs``."""
    args = node.args
    named = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if named and named[0].arg in ("self", "cls"):
        named = named[1:]
    return len(named) + (args.vararg is not None) + (args.kwarg is not None)


def long_classes(modules: dict[str, ast.Module]) -> dict[str, int]:
    return {
        f"{name}:{node.name}": lines
        for name, tree in modules.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and (lines := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_CLASS_LINES
    }


def wide_functions(modules: dict[str, ast.Module]) -> dict[str, int]:
    return {
        f"{name}:{node.name}:{node.lineno}": count
        for name, tree in modules.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (count := parameters(node)) > MAX_PARAMETERS
    }


def test_the_top_level_holds_only_the_entry_points_and_the_settings() -> None:
    modules = {p.name for p in PACKAGE.glob("*.py")}
    assert modules == TOP_LEVEL
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == LAYERS


def test_no_class_is_over_400_lines() -> None:
    assert long_classes(trees()) == {}


def test_no_function_takes_more_than_8_parameters() -> None:
    assert wide_functions(trees()) == {}


def test_the_shape_checks_can_fail() -> None:
    """A long class and a wide function (``self`` not counted, ``*args`` counted) are
    found; a method of exactly 8 is not."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    source = (
        f"class Big:\n{body}\n"
        "def wide(a, b, c, d, e, f, g, h, *rest): pass\n"
        "class Fine:\n    def method(self, a, b, c, d, e, f, g, h): pass\n"
    )
    modules = {"probe.py": ast.parse(source)}
    assert long_classes(modules) == {"probe.py:Big": MAX_CLASS_LINES + 1}
    assert wide_functions(modules) == {"probe.py:wide:402": 9}
