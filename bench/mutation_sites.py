"""Mutation sites of ``bench/mutation.py``: single-token mutations of a function's AST (operator
swaps, constants, exp<->expm1, log<->log1p, dropped terms and minus signs, swapped arguments),
applied in place to the function's code object so every importer sees them."""

from __future__ import annotations

import ast
import importlib
from dataclasses import dataclass
from pathlib import Path

SWAPS: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div,
                           ast.Div: ast.Mult, ast.Pow: ast.Mult, ast.Lt: ast.LtE,
                           ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
CALL_SWAPS = {"exp": "expm1", "expm1": "exp", "log": "log1p", "log1p": "log"}


@dataclass(frozen=True)
class Site:
    """One mutation: the ``index``-th node of ``kind`` inside function ``name`` of ``module``."""

    module: str
    name: str
    kind: str
    index: int
    line: str = ""


# ------------------------------------------------------------------------------------------
# mutation sites and their application


def _candidates(node: ast.AST, kind: str) -> bool:
    if kind == "operator":
        return (isinstance(node, ast.BinOp) and type(node.op) in SWAPS) or (
            isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS)
    if kind == "constant":
        return (isinstance(node, ast.Constant) and isinstance(node.value, int | float)
                and not isinstance(node.value, bool))
    if kind == "call":
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in CALL_SWAPS)
    if kind == "drop_term":
        return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub)
    if kind == "drop_minus":
        return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    if kind == "swap_args":
        return (isinstance(node, ast.Call) and len(node.args) >= 2
                and not any(isinstance(a, ast.Starred) for a in node.args[:2])
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "ctx"))
    raise ValueError(kind)


KINDS = ("operator", "constant", "call", "drop_term", "drop_minus", "swap_args")


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise LookupError(name)


def sites_of(module: str, name: str) -> list[Site]:
    source = Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8")
    fn = _function(ast.parse(source), name)
    out = []
    for kind in KINDS:
        nodes = [n for n in ast.walk(fn) if _candidates(n, kind)]
        out += [Site(module, name, kind, i, ast.unparse(n)[:120]) for i, n in enumerate(nodes)]
    return out


def _mutate(node: ast.AST, kind: str) -> ast.AST:
    if kind == "operator" and isinstance(node, ast.BinOp):
        node.op = SWAPS[type(node.op)]()
    elif kind == "operator" and isinstance(node, ast.Compare):
        node.ops = [SWAPS[type(node.ops[0])]()]
    elif kind == "constant" and isinstance(node, ast.Constant):
        node.value = node.value + 1 if isinstance(node.value, int) else node.value * 1.01
    elif kind == "call" and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node.func.attr = CALL_SWAPS[node.func.attr]
    elif kind == "drop_term" and isinstance(node, ast.BinOp):
        return node.left
    elif kind == "drop_minus" and isinstance(node, ast.UnaryOp):
        return node.operand
    elif kind == "swap_args" and isinstance(node, ast.Call):
        node.args[0], node.args[1] = node.args[1], node.args[0]
    return node


def resolve(site: Site) -> Site | None:
    """``site`` in the current code: the same index if it still shows the recorded line, else
    the node of the same kind showing that line nearest the recorded index (code added above
    it shifts the indices), else ``None`` (the mutated code is gone)."""
    same = [s for s in sites_of(site.module, site.name) if s.kind == site.kind]
    if site.index < len(same) and same[site.index].line == site.line:
        return site
    showing = [s for s in same if s.line == site.line]
    return min(showing, key=lambda s: abs(s.index - site.index)) if showing else None


def _replace(root: ast.AST, target: ast.AST, replacement: ast.AST) -> None:
    for parent in ast.walk(root):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, replacement)
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if item is target:
                        value[i] = replacement


def apply(site: Site) -> None:
    """Replace the code of ``site``'s function by the mutated code, in place."""
    module = importlib.import_module(site.module)
    path = Path(module.__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    fn = _function(tree, site.name)
    target = [n for n in ast.walk(fn) if _candidates(n, site.kind)][site.index]
    replacement = _mutate(target, site.kind)
    if replacement is not target:
        _replace(fn, target, replacement)
    ast.fix_missing_locations(tree)
    code = compile(tree, str(path), "exec")
    new = next(c for c in code.co_consts if getattr(c, "co_name", None) == site.name)
    func = getattr(module, site.name)
    func = getattr(func, "__wrapped__", func)
    func.__code__ = new
