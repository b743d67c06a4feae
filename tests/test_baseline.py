"""The regression gate of ``dpverify run --baseline`` on selections: a run of some routes, or of
one claim, is compared with the baseline over the same routes and claims only, and a planted
weakening on the selected routes is still caught."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from dpverify.reports.baseline import weakenings
from dpverify.theorems import get
from dpverify.verifiers.verdict import Status, headline, outcome

SNAPSHOT = Path(__file__).resolve().parents[1] / "reports" / "catalogue" / "latest.json"


def _snapshot() -> dict[str, Any]:
    return json.loads(SNAPSHOT.read_text())


def _run_of(doc: dict[str, Any], ids: set[str], routes: set[str] | None = None,
            claim: int | None = None) -> dict[str, Any]:
    """``doc`` cut down to what a run of ``ids`` (``--route``, ``--claim``) would contain, each
    claim's headline and outcome recomputed from the verdicts it keeps."""
    new = copy.deepcopy(doc)
    new["theorems"] = [th for th in new["theorems"] if th["id"] in ids]
    for th in new["theorems"]:
        claims = []
        for c in th["claims"]:
            if claim is not None and c["number"] != claim:
                continue
            c["verdicts"] = [v for v in c["verdicts"] if routes is None or v["route"] in routes]
            if not c["verdicts"]:
                continue
            checks = next(k for k in get(th["id"]).claims if k.number == c["number"]).checks
            head = headline([Status(v["status"]) for v in c["verdicts"]],
                            [checks[v["check"]].part for v in c["verdicts"]])
            c["headline"], c["outcome"] = head.value, outcome(c["expected"], head).value
            claims.append(c)
        th["claims"] = claims
    return new


def test_a_route_selection_is_compared_over_its_own_routes() -> None:
    old = _snapshot()
    # DEF-DP claim 1 is proved by z3 and certified by its oracle checks: an oracle-only run's
    # headline is "certified", which is no weakening of the oracle checks
    run = _run_of(old, {"DEF-DP"}, {"oracle"})
    assert run["theorems"][0]["claims"][0]["headline"] == "certified"
    assert weakenings(old, run)  # whole-claim comparison: spurious "proved -> certified"
    assert weakenings(old, run, routes=["oracle"]) == []


def test_a_weakened_check_on_the_selected_route_is_still_caught() -> None:
    old = _snapshot()
    run = _run_of(old, {"DEF-DP"}, {"oracle"})
    claim = run["theorems"][0]["claims"][0]
    for v in claim["verdicts"]:
        v["status"] = "passed"  # planted: the oracle checks only searched
    claim["headline"] = "passed"
    lines = weakenings(old, run, routes=["oracle"])
    assert lines == ["DEF-DP claim 1: certified -> passed (routes oracle)"]


def test_a_claim_selection_has_no_missing_claims_but_a_full_run_does() -> None:
    old = _snapshot()
    number = get("DEF-DP").claims[0].number
    run = _run_of(old, {"DEF-DP"}, claim=number)
    assert any("missing" in line for line in weakenings(old, run))
    assert weakenings(old, run, selected=True) == []
    whole = _run_of(old, {"DEF-DP"})
    assert weakenings(old, whole) == []
    whole["theorems"][0]["claims"].pop()  # planted: a claim the catalogue still has, not run
    assert any("missing" in line for line in weakenings(old, whole))
