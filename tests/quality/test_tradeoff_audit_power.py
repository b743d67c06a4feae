"""Power of the audit's trade-off queries and discrete events: planted bugs must be named.

The accountants below are written here, independently of the product (statistics.NormalDist,
mpmath binomial sums). ``CltGdp`` reports the central-limit mu of DP-SGD
(``q sqrt(k (e^{1/sigma^2} - 1))``, the formula of Opacus's and TF-Privacy's GDP accountants,
catalogue DRS-CLT) as a GDP guarantee, and the TPR of ``G_mu`` at that mu: for a short
subsampled-Gaussian run both under-state the privacy loss, a certified privacy bug (DRS-CLT
claim 4). ``GdpFromMu`` reports a fixed mu. ``DiscreteLaplaceAsRR`` uses the exact identity
DLap(b) = RR(1/b) (sensitivity 1); its buggy twin forgets the composition count.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

import mpmath as mp

from dpverify.verifiers.accountants.audit import AuditOptions, audit, exit_code
from dpverify.verifiers.accountants.scenario import parse_cases
from tests.test_audit import ExactAccountant

OPTS = AuditOptions(timeout=30, rel_width=1e-2, ref_seconds=10)
ND = statistics.NormalDist()

SGM = {"id": "sgm", "scenario": {"neighboring": "add_remove", "events": [
    {"mechanism": "gaussian", "sigma": 1.0, "count": 100,
     "sampling": {"scheme": "poisson", "q": 0.01}}]},
    "fprs": [0.001], "gdp_mu": True}
DLAP = {"id": "dlap", "scenario": {"neighboring": "add_remove", "events": [
    {"mechanism": "discrete_laplace", "b": 2.0, "count": 6, "sampling": None}]},
    "deltas": [1e-3], "epsilons": [0.5]}


def _verdicts(acc: Any, data: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    return {(r["scenario"], r["query"]): r["verdict"]
            for r in audit([acc], parse_cases(data), OPTS)}


class GdpFromMu:
    """Claims mu-GDP for a fixed mu and the TPR of G_mu."""

    def __init__(self, mu: float, name: str = "gdp-from-mu") -> None:
        self.mu, self.name = mu, name

    def _mu(self, scenario: Any) -> float:
        return self.mu

    def epsilon(self, scenario: Any, delta: float) -> float:
        raise NotImplementedError("trade-off only")

    delta = epsilon

    def gdp_mu(self, scenario: Any) -> float:
        return self._mu(scenario)

    def tpr(self, scenario: Any, fpr: float) -> float:
        return ND.cdf(ND.inv_cdf(fpr) + self._mu(scenario))


class CltGdp(GdpFromMu):
    def __init__(self) -> None:
        super().__init__(0.0, "clt-gdp")

    def _mu(self, scenario: Any) -> float:
        ev = scenario.events[0]
        return ev.sampling.q * math.sqrt(ev.count * math.expm1(1 / ev.sigma**2))


class DiscreteLaplaceAsRR:
    """eps(delta) / delta(eps) of k-fold DLap(b) as k-fold RR(1/b) (binomial sums)."""

    name = "dlap-as-rr"
    forget_count = False

    def _delta(self, scenario: Any, eps: Any) -> Any:
        ev = scenario.events[0]
        k = 1 if self.forget_count else ev.count
        e0 = 1 / mp.mpf(repr(ev.b))
        p = mp.e**e0 / (1 + mp.e**e0)
        return mp.fsum(mp.binomial(k, j) * p ** (k - j) * (1 - p) ** j
                       * max(mp.mpf(0), 1 - mp.e ** (eps - (k - 2 * j) * e0))
                       for j in range(k + 1))

    def delta(self, scenario: Any, epsilon: float) -> float:
        with mp.workdps(40):
            return float(self._delta(scenario, mp.mpf(epsilon)))

    def epsilon(self, scenario: Any, delta: float) -> float:
        with mp.workdps(40):
            lo, hi = mp.mpf(0), mp.mpf(20)
            for _ in range(120):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if self._delta(scenario, mid) <= delta else (mid, hi)
            return float(hi)


class ForgetsCount(DiscreteLaplaceAsRR):
    name = "dlap-forgets-count"
    forget_count = True


def test_clt_mu_and_its_tpr_are_unsound_for_a_short_dp_sgd_run() -> None:
    v = _verdicts(CltGdp(), [SGM])
    assert v[("sgm", "gdp_mu")] == "UNSOUND"
    assert v[("sgm", "tpr@fpr=0.001")] == "UNSOUND"


def test_honest_and_loose_mu_claims() -> None:
    records = audit([GdpFromMu(0.45, "honest"), GdpFromMu(0.7, "loose")], parse_cases([SGM]),
                    OPTS)
    got = {(r["accountant"], r["query"]): r["verdict"] for r in records}
    assert got[("honest", "gdp_mu")] == "SOUND"
    assert got[("honest", "tpr@fpr=0.001")] in ("SOUND", "LOOSE")
    assert got[("loose", "gdp_mu")] == "LOOSE"
    assert exit_code(records) == 0


def test_accountants_without_trade_off_methods_are_unsupported_there() -> None:
    v = _verdicts(ExactAccountant(), [SGM])
    assert v[("sgm", "gdp_mu")] == "UNSUPPORTED"
    assert v[("sgm", "tpr@fpr=0.001")] == "UNSUPPORTED"


def test_discrete_laplace_composition_count_bug_is_unsound() -> None:
    good = _verdicts(DiscreteLaplaceAsRR(), [DLAP])
    assert set(good.values()) == {"SOUND"}
    bad = _verdicts(ForgetsCount(), [DLAP])
    assert bad[("dlap", "epsilon@delta=0.001")] == "UNSOUND"
    assert bad[("dlap", "delta@epsilon=0.5")] == "UNSOUND"
