"""Mutation sites of the formula and engine functions, their application in place, and the
forked children the harness runs them in (used by ``bench/mutation.py``)."""

from __future__ import annotations

import ast
import importlib
import os
import pickle
import select
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTABLE = (ROOT / "theorems" / "formulas", ROOT / "theorems" / "numerics")
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


def resolve(site: Site) -> Site | None:
    """``site`` in the current code: a replayed row names its node by index among the nodes of
    its kind, and an edit of the function since the run shifts those indices; the node is the
    one whose text is the row's ``line`` (the nearest to the old index), None when it is gone."""
    nodes = sites_of(site.module, site.name)
    same = [s for s in nodes if s.kind == site.kind and s.line == site.line]
    if not same:
        return None
    return min(same, key=lambda s: abs(s.index - site.index))


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


# ------------------------------------------------------------------------------------------
# forked runs


def _send(out: Any, message: Any) -> None:
    data = pickle.dumps(message)
    out.write(len(data).to_bytes(8, "big") + data)
    out.flush()


def _stream_child(work: Callable[[], Iterable[Any]], seconds: float) -> tuple[list[Any], str]:
    """The items ``work()`` yields in a forked child, and how the child ended: ``done``,
    ``crash: ...`` (an exception escaped), ``died`` (exited without a word) or ``timed_out``
    (killed by this process at ``seconds``: the items received until then are kept)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read)
        out = os.fdopen(write, "wb")
        try:
            for item in work():
                _send(out, ("item", item))
            _send(out, ("done", None))
        except BaseException as exc:  # the mutant crashed the harness itself
            _send(out, ("crash", repr(exc)))
        out.close()
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + seconds
    items: list[Any] = []
    end, buffer = "timed_out", b""
    while end == "timed_out":
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read], [], [], left)[0]:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read, 1 << 16)
        if not chunk:
            end = "died"
            break
        buffer += chunk
        while len(buffer) >= 8 and len(buffer) >= 8 + int.from_bytes(buffer[:8], "big"):
            size = int.from_bytes(buffer[:8], "big")
            tag, value = pickle.loads(buffer[8:8 + size])
            buffer = buffer[8 + size:]
            if tag == "item":
                items.append(value)
            else:
                end = "done" if tag == "done" else f"crash: {value}"
    os.close(read)
    os.waitpid(pid, 0)
    return items, end


def _in_child(work: Any, seconds: float) -> Any:
    """``work()`` in a forked child with a hard time limit: ``("ok", result)``, ``("crash",
    why)``, or ``None`` when it timed out."""
    items, end = _stream_child(lambda: [work()], seconds)
    if end == "done":
        return "ok", items[0]
    return None if end == "timed_out" else ("crash", end.removeprefix("crash: "))
