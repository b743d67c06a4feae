"""The schema of the run document (``run-v2.schema.json``, JSON Schema draft 2020-12), a
small validator for it, and a reader that upgrades version-1 documents.

The validator interprets the subset of JSON Schema that the schema file uses — ``type``,
``enum``, ``const``, ``required``, ``properties``, ``additionalProperties``, ``items``,
``minItems``, ``minimum``, ``pattern``, ``format: date-time`` and local ``$ref`` — so the
schema file stays the single source of truth without a ``jsonschema`` dependency. A keyword
outside that subset is an error of the schema file, not silently ignored. On top of the
schema, a few cross-field checks that JSON Schema cannot express: the summary counts agree with
the claims listed, and each verdict belongs to the claim that holds it.

Main results
------------
- :func:`validate`: the list of problems of a document (empty when it is valid).
- :func:`upgrade`: a ``dpverify-run/1`` document read as version 2. Version 1 had no
  ``certified``: its ``proved`` covered both region proofs and arb-certified point lists; a
  point-list ``proved`` (evidence with ``points_total`` or ``instances_checked``, no ``region``)
  becomes ``certified``, every claim gets ``scope: universal`` (version 1 did not record it),
  and headlines and counts are recomputed.
- :func:`load_schema`: the schema as a dict.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA_ID = "dpverify-run/2"
SCHEMA_V1 = "dpverify-run/1"
SCHEMA_PATH = Path(__file__).with_name("run-v2.schema.json")

# Keywords the validator understands; annotations are accepted and ignored.
_ASSERTIONS = {"type", "enum", "const", "required", "properties", "additionalProperties",
               "items", "minItems", "minimum", "pattern", "format", "$ref"}
_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
MAX_PROBLEMS = 50


@cache
def load_schema() -> dict[str, Any]:
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)


def validate(doc: Any) -> list[str]:
    """Problems of ``doc`` as a ``dpverify-run/2`` document, each ``"<json path>: <what>"``."""
    schema = load_schema()
    problems: list[str] = []
    _check(doc, schema, schema, "$", problems)
    if not problems:
        problems += _cross_checks(doc)
    return problems[:MAX_PROBLEMS]


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"only local $ref are supported; got {ref}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def _check(value: Any, schema: dict[str, Any], root: dict[str, Any], path: str,
           problems: list[str]) -> None:
    if len(problems) >= MAX_PROBLEMS:
        return
    unknown = set(schema) - _ASSERTIONS - _ANNOTATIONS
    if unknown:
        raise ValueError(f"schema keyword(s) {sorted(unknown)} at {path} are not supported")
    if "$ref" in schema:
        _check(value, _resolve(schema["$ref"], root), root, path, problems)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            problems.append(f"{path}: expected {' or '.join(types)}, got {_kind(value)}")
            return
    if "const" in schema and not _same(value, schema["const"]):
        problems.append(f"{path}: must be {schema['const']!r}; got {_short(value)}")
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        options = ", ".join(repr(e) for e in schema["enum"])
        problems.append(f"{path}: must be one of {options}; got {_short(value)}")
    if "minimum" in schema and _TYPES["number"](value) and value < schema["minimum"]:
        problems.append(f"{path}: must be >= {schema['minimum']}; got {value}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        problems.append(f"{path}: {value!r} does not match {schema['pattern']}")
    if schema.get("format") == "date-time" and isinstance(value, str):
        try:
            dt.datetime.fromisoformat(value)
        except ValueError:
            problems.append(f"{path}: not an ISO 8601 date-time: {value!r}")
    if isinstance(value, dict):
        for key in schema.get("required", ()):
            if key not in value:
                problems.append(f"{path}: missing required key {key!r}")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _check(item, props[key], root, f"{path}.{key}", problems)
            elif extra is False:
                problems.append(f"{path}: unexpected key {key!r}")
            elif isinstance(extra, dict):
                _check(item, extra, root, f"{path}.{key}", problems)
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            problems.append(f"{path}: needs at least {schema['minItems']} item(s)")
        if "items" in schema:
            for i, item in enumerate(value):
                _check(item, schema["items"], root, f"{path}[{i}]", problems)


def _same(a: Any, b: Any) -> bool:
    # JSON Schema compares numbers by value but never equates booleans with 0/1
    if _TYPES["number"](a) and _TYPES["number"](b):
        return bool(a == b)
    return type(a) is type(b) and a == b


def _kind(v: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](v):
            return name
    return type(v).__name__


def _short(v: Any) -> str:
    s = json.dumps(v) if not isinstance(v, str) else repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _cross_checks(doc: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    claims = 0
    headlines: dict[str, int] = {}
    outcomes: dict[str, int] = {}
    for i, th in enumerate(doc["theorems"]):
        for j, c in enumerate(th["claims"]):
            claims += 1
            headlines[c["headline"]] = headlines.get(c["headline"], 0) + 1
            outcomes[c["outcome"]] = outcomes.get(c["outcome"], 0) + 1
            for k, v in enumerate(c["verdicts"]):
                if v["theorem"] != th["id"] or v["claim"] != c["number"]:
                    problems.append(
                        f"$.theorems[{i}].claims[{j}].verdicts[{k}]: belongs to "
                        f"{v['theorem']} claim {v['claim']}, listed under {th['id']} claim "
                        f"{c['number']}")
    s = doc["summary"]
    if s["claims"] != claims:
        problems.append(f"$.summary.claims: says {s['claims']}, the document lists {claims}")
    for key, counted in (("headlines", headlines), ("outcomes", outcomes)):
        for name, n in s[key].items():
            if n != counted.get(name, 0):
                problems.append(f"$.summary.{key}.{name}: says {n}, the document lists "
                                f"{counted.get(name, 0)}")
    return problems


_STRENGTH = ("failed", "error", "not_applicable", "inconclusive", "passed", "certified",
             "proved")


def _headline(statuses: list[str]) -> str:
    for first in ("failed", "error"):
        if first in statuses:
            return first
    return max(statuses, key=_STRENGTH.index) if statuses else "not_applicable"


def upgrade(doc: dict[str, Any]) -> dict[str, Any]:
    """A version-1 run document as version 2 (a copy); a version-2 document unchanged."""
    if doc.get("schema") != SCHEMA_V1:
        return doc
    out = json.loads(json.dumps(doc))
    out["schema"] = SCHEMA_ID
    headlines = {s: 0 for s in _STRENGTH}
    for th in out.get("theorems", []):
        for claim in th.get("claims", []):
            claim.setdefault("scope", "universal")
            for v in claim.get("verdicts", []):
                ev = v.get("evidence") or {}
                pointwise = "points_total" in ev or "instances_checked" in ev
                if v.get("status") == "proved" and pointwise and "region" not in ev:
                    v["status"] = "certified"
            claim["headline"] = _headline([v["status"] for v in claim.get("verdicts", [])])
            headlines[claim["headline"]] += 1
    if isinstance(out.get("summary"), dict):
        out["summary"]["headlines"] = {s: headlines[s] for s in reversed(_STRENGTH)}
    return out


__all__ = ["SCHEMA_ID", "SCHEMA_PATH", "load_schema", "upgrade", "validate"]
