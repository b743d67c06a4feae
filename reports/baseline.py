"""Weakening against a baseline run: the regression gate of ``dpverify run --baseline``.

A claim weakens when its headline moves down the strength order proved > certified > passed >
inconclusive > not_applicable > error (``failed`` is judged by the claim's outcome instead), or
when a claim of the baseline is missing from a run that covers its theorem. A version-1 baseline
is read as version 2 first (:func:`dpverify.reports.schema.upgrade`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpverify.verifiers.verdict import weakened


def _claims(doc: Mapping[str, Any]) -> dict[tuple[str, int], Mapping[str, Any]]:
    return {(th["id"], c["number"]): c for th in doc["theorems"] for c in th["claims"]}


def weakenings(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """One line per claim that is weaker in ``new`` than in ``old`` (empty: no regression)."""
    before, after = _claims(old), _claims(new)
    covered = {th["id"] for th in new["theorems"] if th["claims"]}
    lines = []
    for key, c in before.items():
        tid, number = key
        if tid not in covered:
            continue
        now = after.get(key)
        if now is None:
            lines.append(f"{tid} claim {number}: missing (was {c['headline']})")
        elif weakened(c["headline"], now["headline"]):
            lines.append(f"{tid} claim {number}: {c['headline']} -> {now['headline']}")
        elif c["outcome"] == "as_expected" and now["outcome"] != "as_expected":
            lines.append(f"{tid} claim {number}: outcome {c['outcome']} -> {now['outcome']}")
    return lines
