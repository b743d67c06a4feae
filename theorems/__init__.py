"""The theorem registry: every catalogue id and alias resolves here.

``all_theorems()`` lists the catalogue in index order; encoded entries come from the family
modules, the others are indexed placeholders (``encoded=False``, no evaluators, no claims) so
that ``dpverify show`` can say honestly that an entry is not encoded yet. Ids are checked for
uniqueness and against the catalogue index at import.
"""

from __future__ import annotations

import importlib
from functools import cache

from theorems.core import Source, Theorem, UnknownName
from theorems.index import INDEX

# Family modules, in catalogue order. Each exports THEOREMS: tuple[Theorem, ...].
FAMILY_MODULES: tuple[str, ...] = (
    "theorems.foundations",
    "theorems.composition",
    "theorems.bounded_range",
    "theorems.hypothesis_dp",
    "theorems.mechanisms",
    "theorems.privacy_loss",
    "theorems.subsampling",
)

_TYPE_WORDS = ("EXACT", "TIGHT", "BOUND", "APPROX", "DEFINITION", "ALGORITHM")


def _placeholder(row: tuple[str, str, str, str, str, str, tuple[str, ...]]) -> Theorem:
    id_, title, family, source, typ, evaluators, aliases = row
    types = tuple(t for t in _TYPE_WORDS if t in typ) or ("EXACT",)
    return Theorem(
        id=id_,
        title=title,
        family=family,
        source=Source(source, locator=source),
        types=types,
        confidence=(),
        statement="(not encoded yet: see the catalogue entry)",
        domain="",
        aliases=aliases,
        notes=f"catalogue evaluators: {evaluators}",
        encoded=False,
    )


@cache
def _registry() -> tuple[dict[str, Theorem], dict[str, str]]:
    encoded: dict[str, Theorem] = {}
    for module_name in FAMILY_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            continue
        for th in module.THEOREMS:
            if th.id in encoded:
                raise ValueError(f"duplicate theorem id {th.id}")
            encoded[th.id] = th
    index_ids = {row[0] for row in INDEX}
    unknown = set(encoded) - index_ids
    if unknown:
        raise ValueError(f"theorem ids not in the catalogue index: {sorted(unknown)}")
    by_id: dict[str, Theorem] = {}
    aliases: dict[str, str] = {}
    for row in INDEX:
        th = encoded.get(row[0]) or _placeholder(row)
        by_id[th.id] = th
        for alias in set(th.aliases) | set(row[6]):
            if alias in aliases or alias in index_ids:
                raise ValueError(f"alias {alias} is not unique")
            aliases[alias] = th.id
    return by_id, aliases


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


def families() -> list[str]:
    seen: list[str] = []
    for th in all_theorems():
        if th.family not in seen:
            seen.append(th.family)
    return seen


__all__ = ["all_theorems", "families", "get", "resolve"]
