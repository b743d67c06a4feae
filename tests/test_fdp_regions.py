"""Region proofs of the fdp family: each SMT problem closes, and a planted wrong formula body
turns it into a refutation (so the problem is built from the code, not from a copy)."""

from __future__ import annotations

import pytest

from dpverify.theorems.claims import Smt
from dpverify.verifiers.smt.route import verify
from dpverify.verifiers.verdict import Budget, Status


def _status(build: object) -> Status:
    status, _, _ = verify(Smt(build, "test"), Budget(seconds=30))  # type: ignore[arg-type]
    return status


def test_np_characterization_is_proved_for_every_pair_on_three_outcomes() -> None:
    from dpverify.theorems.fdp.smt_pairs import characterization_problem

    assert _status(characterization_problem) is Status.PROVED


def test_np_characterization_refutes_a_planted_rejection_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rejecting by INCREASING q/p (the groups reversed) gives a concave curve: refuted."""
    from dpverify.theorems.fdp import smt_pairs
    from dpverify.theorems.formulas.tradeoff_composition import np_vertices_in_order

    def reversed_order(p, q, groups, zero, one):  # type: ignore[no-untyped-def]
        return np_vertices_in_order(p, q, groups[::-1], zero, one)

    monkeypatch.setattr(smt_pairs, "np_vertices_in_order", reversed_order)
    assert _status(smt_pairs.characterization_problem) is Status.FAILED
