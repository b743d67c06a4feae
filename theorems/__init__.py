"""The theorem registry: every catalogue id and alias resolves here.

Registration cannot be forgotten: the registry imports every module of ``dpverify.theorems``
that is not a layer below the families (core, claims, params, values, index, errors, refs,
ctx, numerics, formulas) — each family package and its submodules — and collects every
module-level :class:`~dpverify.theorems.core.Theorem` value. It fails loudly at first use when
two values share an id, when an id is not in the catalogue index, and when an index id has no
encoded entry. ``all_theorems()`` lists the catalogue in index order.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Iterator
from functools import cache
from types import ModuleType

from dpverify.theorems.core import Theorem, UnknownName
from dpverify.theorems.index import INDEX

# Modules of the layers below the families: they define no Theorem values.
LAYER_MODULES = frozenset({"core", "claims", "params", "values", "index", "errors", "refs",
                           "display", "symbolic", "limits", "ctx", "numerics", "formulas"})


def _family_modules() -> Iterator[ModuleType]:
    for info in pkgutil.iter_modules(__path__):
        if info.name in LAYER_MODULES or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        yield module
        if info.ispkg:
            for sub in pkgutil.walk_packages(module.__path__, prefix=f"{module.__name__}."):
                yield importlib.import_module(sub.name)


@cache
def _registry() -> tuple[dict[str, Theorem], dict[str, str]]:
    encoded: dict[str, Theorem] = {}
    where: dict[str, str] = {}
    for module in _family_modules():
        for value in vars(module).values():
            if not isinstance(value, Theorem) or encoded.get(value.id) is value:
                continue
            if value.id in encoded:
                raise ValueError(f"theorem id {value.id} is defined twice: in {where[value.id]} "
                                 f"and in {module.__name__}")
            encoded[value.id] = value
            where[value.id] = module.__name__
    index_ids = [row[0] for row in INDEX]
    unknown = set(encoded) - set(index_ids)
    if unknown:
        raise ValueError(f"theorem ids not in the catalogue index: {sorted(unknown)}")
    missing = [i for i in index_ids if i not in encoded]
    if missing:
        raise ValueError(f"catalogue ids with no encoded Theorem: {missing}")
    by_id: dict[str, Theorem] = {}
    aliases: dict[str, str] = {}
    for row in INDEX:
        th = encoded[row[0]]
        by_id[th.id] = th
        for alias in set(th.aliases) | set(row[6]):
            if alias in aliases or alias in by_id or alias in index_ids:
                raise ValueError(f"alias {alias} is not unique")
            aliases[alias] = th.id
    return by_id, aliases


def module_of(theorem_id: str) -> str:
    """The module that defines a theorem (one hop from an id to its code)."""
    target = get(theorem_id)
    for module in _family_modules():
        if any(v is target for v in vars(module).values()):
            return module.__name__
    raise UnknownName(theorem_id)  # unreachable: every registered value came from a module


def all_theorems() -> list[Theorem]:
    """Every catalogue entry in index order."""
    return list(_registry()[0].values())


def resolve(name: str) -> str:
    """The primary id of an id or alias."""
    by_id, aliases = _registry()
    if name in by_id:
        return name
    if name in aliases:
        return aliases[name]
    raise UnknownName(f"unknown theorem id {name!r}; `dpverify list` shows the catalogue")


def get(name: str) -> Theorem:
    """A theorem by id or alias."""
    return _registry()[0][resolve(name)]


def by_family(family: str | None = None) -> list[Theorem]:
    """Every catalogue entry in index order, or those of one ``family``."""
    from dpverify.theorems.errors import InvalidParameter

    rows = all_theorems()
    if family is None:
        return rows
    known = families()
    if family not in known:
        raise InvalidParameter(f"family must be one of {', '.join(known)}; got {family!r}")
    return [t for t in rows if t.family == family]


class _CallableCatalogue(ModuleType):
    """Importing ``dpverify.theorems.x`` binds the name ``theorems`` of the ``dpverify`` package
    to this package, shadowing the public function ``dpverify.theorems(family=None)``; calling
    the package does what the function does, so the public name means one thing always."""

    def __call__(self, family: str | None = None) -> list[Theorem]:
        return by_family(family)


sys.modules[__name__].__class__ = _CallableCatalogue


def families() -> list[str]:
    seen: list[str] = []
    for th in all_theorems():
        if th.family not in seen:
            seen.append(th.family)
    return seen


__all__ = ["all_theorems", "by_family", "families", "get", "module_of", "resolve"]
