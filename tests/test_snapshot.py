"""The committed snapshot of the catalogue run (``reports/catalogue/latest.json``) may only get
stronger.

The quick profile is run over the whole catalogue (``verifiers.runner`` plan / execute with two
workers / assemble) and every claim's headline is compared with the snapshot's: a claim whose
headline is weaker than in the snapshot, or a claim of the snapshot that disappeared, fails the
test. Strength: ``proved > passed > inconclusive = not_applicable > failed = error`` for a
claim expected to hold; for a catalogue erratum (``expected="refuted"``) the counterexample is
the desired verdict, so ``failed`` is the strongest there.

Regenerate the snapshot with a whole-catalogue ``dpverify run`` (its default ``--out`` is
``reports/catalogue``; a run of some ids writes ``./dpverify-report/``) after an intended
change. The snapshot must cover every claim of the catalogue.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from dpverify.reports.schema import validate

SNAPSHOT = Path(__file__).resolve().parents[1] / "reports" / "catalogue" / "latest.json"

_HOLDS_RANK = {"proved": 3, "passed": 2, "inconclusive": 1, "not_applicable": 1, "failed": 0,
               "error": 0}
_REFUTED_RANK = {"failed": 3, "inconclusive": 1, "not_applicable": 1, "passed": 0,
                 "proved": 0, "error": 0}


def strength(expected: str, headline: str) -> int:
    """How strongly a headline supports the claim's expected outcome (higher is better)."""
    table = _REFUTED_RANK if expected == "refuted" else _HOLDS_RANK
    return table[headline]


def _claims(doc: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(th["id"], c["number"]): c for th in doc["theorems"] for c in th["claims"]}


def regressions(snapshot: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Claims weaker now than in the snapshot, and claims of the snapshot that disappeared."""
    now = _claims(current)
    problems = []
    for key, old in _claims(snapshot).items():
        tid, number = key
        new = now.get(key)
        if new is None:
            problems.append(f"{tid} claim {number} is in the snapshot but not in the run")
            continue
        if strength(new["expected"], new["headline"]) < strength(old["expected"],
                                                                 old["headline"]):
            summary = "; ".join(v["summary"] for v in new["verdicts"])
            problems.append(
                f"{tid} claim {number} (expected {new['expected']}): {old['headline']} in the "
                f"snapshot, {new['headline']} now — {summary}")
    return problems


def _load_snapshot() -> dict[str, Any]:
    if not SNAPSHOT.exists():
        pytest.fail(f"the catalogue snapshot {SNAPSHOT} is missing: run `dpverify run` "
                    "(it writes reports/catalogue/latest.json) and commit it", pytrace=False)
    doc = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    problems = validate(doc)
    assert not problems, f"the snapshot does not match the run schema: {problems[:5]}"
    assert doc["profile"] == "quick", (
        f"the snapshot was made with the {doc['profile']} profile; the snapshot is the quick "
        "run: regenerate it with `dpverify run`")
    return doc


# ------------------------------------------------------------------------------------------


def test_the_comparison_catches_weakening_and_disappearance():
    def doc(*claims: tuple[str, int, str, str]) -> dict[str, Any]:
        theorems: dict[str, list[dict[str, Any]]] = {}
        for tid, n, expected, headline in claims:
            theorems.setdefault(tid, []).append(
                {"number": n, "expected": expected, "headline": headline,
                 "verdicts": [{"summary": f"{headline} (test)"}]})
        return {"theorems": [{"id": t, "claims": cs} for t, cs in theorems.items()]}

    old = doc(("A", 1, "holds", "proved"), ("A", 2, "holds", "passed"),
              ("B", 1, "refuted", "failed"), ("B", 2, "holds", "inconclusive"))
    assert regressions(old, old) == []
    stronger = doc(("A", 1, "holds", "proved"), ("A", 2, "holds", "proved"),
                   ("B", 1, "refuted", "failed"), ("B", 2, "holds", "passed"),
                   ("C", 1, "holds", "passed"))
    assert regressions(old, stronger) == []
    weaker = doc(("A", 1, "holds", "passed"), ("A", 2, "holds", "failed"),
                 ("B", 1, "refuted", "passed"), ("B", 2, "holds", "not_applicable"))
    found = regressions(old, weaker)
    assert [p.split(" (")[0] for p in found] == ["A claim 1", "A claim 2", "B claim 1"]
    assert regressions(old, doc(("A", 1, "holds", "proved"))) == [
        "A claim 2 is in the snapshot but not in the run",
        "B claim 1 is in the snapshot but not in the run",
        "B claim 2 is in the snapshot but not in the run"]
    assert regressions(old, doc(("A", 1, "holds", "proved"), ("A", 2, "holds", "error"),
                                ("B", 1, "refuted", "failed"),
                                ("B", 2, "holds", "inconclusive")))[0].startswith("A claim 2")


def test_the_snapshot_covers_the_whole_catalogue():
    """A partial run must never stand in for the snapshot: every encoded theorem and every
    claim of the registry is in it (a `dpverify run ID` once replaced it with 4 claims)."""
    from dpverify.theorems import all_theorems

    snapshot = _load_snapshot()
    have = {(th["id"], c["number"]) for th in snapshot["theorems"] for c in th["claims"]}
    ids = {th["id"] for th in snapshot["theorems"]}
    missing_ids = sorted(th.id for th in all_theorems() if th.encoded and th.id not in ids)
    missing = sorted(f"{th.id} claim {c.number}" for th in all_theorems() for c in th.claims
                     if (th.id, c.number) not in have)
    assert not missing_ids and not missing, (
        "the snapshot does not cover the catalogue (regenerate it with a whole-catalogue "
        f"`dpverify run`): ids {missing_ids[:10]}, claims {missing[:10]}")


def test_the_catalogue_is_not_weaker_than_its_snapshot():
    from dpverify.verifiers.dispatch import PROFILES
    from dpverify.verifiers.runner import assemble, execute, plan

    snapshot = _load_snapshot()
    profile = PROFILES["quick"]
    tasks = plan()
    started = time.monotonic()
    verdicts = execute(tasks, profile, jobs=2)
    doc = assemble(tasks, verdicts, profile, "tests/test_snapshot.py",
                   time.monotonic() - started)
    assert validate(doc) == []
    problems = regressions(snapshot, doc)
    assert not problems, ("weaker than the committed snapshot (after an intended change, "
                          "regenerate it with `dpverify run`):\n" + "\n".join(problems))
