"""Weakening against a baseline run: the regression gate of ``dpverify run --baseline``.

A claim weakens when its headline moves down the strength order proved > certified > passed >
inconclusive > not_applicable > error (``failed`` is judged by the claim's outcome instead), or
when a claim of the baseline is missing from a run that covers its theorem. A version-1 baseline
is read as version 2 first (:func:`dpverify.reports.schema.upgrade`).

A run of some routes only (``--route``) or of one claim (``--claim``) is a selection: a claim
it did not select is not missing, and with ``--route`` a claim's headline in the run comes from
the selected routes' checks only, so it is compared with the baseline's headline over those
same routes (recomputed from the baseline's verdicts, with the parts of the catalogue's claim),
never with the whole claim's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from dpverify.theorems import get
from dpverify.verifiers.verdict import Status, headline, outcome, weakened


def _claims(doc: Mapping[str, Any]) -> dict[tuple[str, int], Mapping[str, Any]]:
    return {(th["id"], c["number"]): c for th in doc["theorems"] for c in th["claims"]}


def _over_routes(tid: str, claim: Mapping[str, Any], routes: Collection[str]
                 ) -> tuple[str, str] | None:
    """The baseline claim's (headline, outcome) over its verdicts on ``routes`` only; None if
    it has none there (or its theorem or claim is no longer in the catalogue)."""
    try:
        checks = next(c for c in get(tid).claims if c.number == claim["number"]).checks
    except (KeyError, StopIteration):
        return None
    kept = [v for v in claim["verdicts"] if v["route"] in routes and v["check"] < len(checks)]
    if not kept:
        return None
    head = headline([Status(v["status"]) for v in kept], [checks[v["check"]].part for v in kept])
    return head.value, outcome(claim["expected"], head).value


def weakenings(old: Mapping[str, Any], new: Mapping[str, Any],
               routes: Collection[str] | None = None, selected: bool = False) -> list[str]:
    """One line per claim that is weaker in ``new`` than in ``old`` (empty: no regression).
    ``routes``: ``new`` ran only these routes; ``selected``: ``new`` ran a selection of claims
    (``--claim``), so a claim absent from it is not missing."""
    before, after = _claims(old), _claims(new)
    covered = {th["id"] for th in new["theorems"] if th["claims"]}
    lines = []
    for key, c in before.items():
        tid, number = key
        if tid not in covered:
            continue
        now = after.get(key)
        if now is None:
            if not (selected or routes):
                lines.append(f"{tid} claim {number}: missing (was {c['headline']})")
            continue
        was = (c["headline"], c["outcome"])
        if routes:
            was = _over_routes(tid, c, routes)
            if was is None:  # the baseline has no verdict on these routes: nothing to compare
                continue
        if weakened(was[0], now["headline"]):
            lines.append(f"{tid} claim {number}: {was[0]} -> {now['headline']}"
                         + (f" (routes {', '.join(sorted(routes))})" if routes else ""))
        elif was[1] == "as_expected" and now["outcome"] != "as_expected":
            lines.append(f"{tid} claim {number}: outcome {was[1]} -> {now['outcome']}")
    return lines
