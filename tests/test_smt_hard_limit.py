"""The smt route's hard limit: a solver that ignores its timeout is killed, never waited for
(the solver runs in a forked child, verifiers/limited.py)."""

from __future__ import annotations

import os
import time

import pytest
import sympy as sp

from dpverify.theorems.claims import Smt, SmtProblem
from dpverify.verifiers.smt import verify
from dpverify.verifiers.verdict import Budget, Status

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the hard limit needs os.fork")

u = sp.Symbol("u", real=True)


@pytest.fixture(autouse=True)
def _fresh_solver_process():
    """A solver process forked after the test's patches, and none left with them."""
    from dpverify.verifiers.smt import server

    server.stop()
    yield
    server.stop()


def test_a_solver_that_ignores_its_timeout_is_inconclusive_at_the_hard_limit(monkeypatch):
    # z3's nlsat may ignore both its timeout and Context.interrupt() (WBK19-SUBRDP claim 5
    # check 7 under the mutant wbk_tau C(a,2) q^2 -> C(a,2)/q^2): here a solve that never ends
    from dpverify.verifiers.smt import route

    def never_returns(*args, **kwargs):
        time.sleep(600)

    monkeypatch.setattr(route, "_solve_with_restarts", never_returns)
    started = time.monotonic()
    status, summary, ev = verify(
        Smt(lambda: SmtProblem({"u": "real"}, (u > 0,), u + 1 > 0), "planted hang"),
        Budget(seconds=1.0))
    elapsed = time.monotonic() - started
    assert status is Status.INCONCLUSIVE and "killed" in summary
    assert ev["reason_unknown"] == "killed at the hard limit"
    assert elapsed < 1.0 + route.HARD_LIMIT_GRACE_SECONDS + 5


def test_the_solver_runs_in_another_process(monkeypatch):
    from dpverify.verifiers.smt import route

    seen: list[int] = []
    real = route._solve

    def spy(*args, **kwargs):
        seen.append(os.getpid())
        return real(*args, **kwargs)

    monkeypatch.setattr(route, "_solve", spy)
    status, _, _ = verify(Smt(lambda: SmtProblem({"u": "real"}, (u > 0,), u + 1 > 0), "t"),
                          Budget(seconds=20.0))
    assert status is Status.PROVED and seen == []  # the call was recorded in the child only


def test_a_proof_still_comes_back_with_its_core():
    status, _, ev = verify(
        Smt(lambda: SmtProblem({"u": "real"}, (u > 0, u <= 1), (u - 1) * (u - 9) >= 0), "t"),
        Budget(seconds=20.0))
    assert status is Status.PROVED and ev["unsat_core"] == ["h2: u <= 1"]


def test_a_solver_process_that_ended_between_problems_is_replaced():
    import signal

    from dpverify.verifiers.smt import server

    problem = Smt(lambda: SmtProblem({"u": "real"}, (u > 0,), u + 1 > 0), "t")
    assert verify(problem, Budget(seconds=20.0))[0] is Status.PROVED
    os.kill(server._current.pid, signal.SIGKILL)  # e.g. PR_SET_PDEATHSIG of a thread's end
    time.sleep(0.2)
    assert verify(problem, Budget(seconds=20.0))[0] is Status.PROVED
