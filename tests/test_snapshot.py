"""The committed snapshot of the catalogue run (``reports/catalogue/latest.json``) may only get
stronger.

The quick profile is run over the whole catalogue (``verifiers.runner`` plan / execute with two
workers / assemble) and every claim's headline is compared with the snapshot's: a claim whose
headline is weaker than in the snapshot, or a claim of the snapshot that disappeared, fails the
test. Strength: ``proved > certified > passed > inconclusive > not_applicable > error > failed`` for
a claim expected to hold; for a catalogue erratum (``expected="refuted"``) the counterexample
is the desired verdict: any move away from the expected outcome is a regression.

Regenerate the snapshot with a whole-catalogue ``dpverify run`` (its default ``--out`` is
``reports/catalogue``; a run of some ids writes ``./dpverify-report/``) after an intended
change. The snapshot must cover every claim of the catalogue.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from dpverify.reports.baseline import weakenings
from dpverify.reports.io import load_run
from dpverify.reports.schema import validate
from dpverify.verifiers.verdict import Status, outcome

SNAPSHOT = Path(__file__).resolve().parents[1] / "reports" / "catalogue" / "latest.json"

def regressions(snapshot: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """Claims weaker now than in the snapshot, and claims of the snapshot that disappeared
    (the gate of ``dpverify run --baseline``)."""
    return weakenings(snapshot, current)


def _load_snapshot() -> dict[str, Any]:
    if not SNAPSHOT.exists():
        pytest.fail(f"the catalogue snapshot {SNAPSHOT} is missing: run `dpverify run` "
                    "(it writes reports/catalogue/latest.json) and commit it", pytrace=False)
    doc = load_run(SNAPSHOT)  # a version-1 snapshot is read as version 2
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
                 "outcome": outcome(expected, Status(headline)).value,
                 "verdicts": [{"summary": f"{headline} (test)"}]})
        return {"theorems": [{"id": t, "claims": cs} for t, cs in theorems.items()]}

    old = doc(("A", 1, "holds", "proved"), ("A", 2, "holds", "passed"),
              ("B", 1, "refuted", "failed"), ("B", 2, "holds", "inconclusive"))
    assert regressions(old, old) == []
    stronger = doc(("A", 1, "holds", "proved"), ("A", 2, "holds", "proved"),
                   ("B", 1, "refuted", "failed"), ("B", 2, "holds", "passed"),
                   ("C", 1, "holds", "passed"))
    assert regressions(old, stronger) == []
    weaker = doc(("A", 1, "holds", "certified"), ("A", 2, "holds", "failed"),
                 ("B", 1, "refuted", "passed"), ("B", 2, "holds", "not_applicable"))
    found = regressions(old, weaker)
    assert [p.split(":")[0] for p in found] == ["A claim 1", "A claim 2", "B claim 1",
                                                "B claim 2"]
    assert regressions(old, doc(("A", 1, "holds", "proved"), ("B", 9, "holds", "proved"))) == [
        "A claim 2: missing (was passed)",
        "B claim 1: missing (was failed)",
        "B claim 2: missing (was inconclusive)"]
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
