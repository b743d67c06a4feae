"""The built-in scenario sets of the audit: ``quick`` (CI; all built-in adapters in under three
minutes on two cores) and ``thorough`` (every family of the issue, delta from 1e-3 to 1e-10).

The DP-SGD scenarios are the catalogue's standard ones (``subsampling.md``, *Standard DP-SGD
scenarios*: A q=0.01 sigma=1 k=1000; B q=0.001 sigma=0.8 k=10000; C q=256/60000 sigma=1.1
k=14062/14063), written with q to 17 significant digits where it is not a short decimal.
Each set also fixes the accuracy of its PLD-engine references (``rel_width``, ``ref_seconds``).
"""

from __future__ import annotations

import math
from typing import Any

from dpverify.theorems.core import InvalidParameter
from dpverify.verifiers.accountants.scenario import ScenarioCase, load_cases, parse_cases

Q_C = 0.0042666666666666667  # 256/60000 to 17 significant digits


def _g(sigma: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "gaussian", "sigma": sigma, "count": count,
            "sampling": None if q is None else {"scheme": "poisson", "q": q}}


def _lap(b: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "laplace", "b": b, "count": count,
            "sampling": None if q is None else {"scheme": "poisson", "q": q}}


def _rr(eps0: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "randomized_response", "eps0": eps0, "count": count,
            "sampling": None if q is None else {"scheme": "poisson", "q": q}}


def _pure(eps0: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "pure_dp", "eps0": eps0, "count": count,
            "sampling": None if q is None else {"scheme": "poisson", "q": q}}


def _samp(q: float | None) -> dict[str, Any] | None:
    return None if q is None else {"scheme": "poisson", "q": q}


def _dlap(b: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "discrete_laplace", "b": b, "count": count, "sampling": _samp(q)}


def _dgauss(sigma: float, count: int, q: float | None = None) -> dict[str, Any]:
    return {"mechanism": "discrete_gaussian", "sigma": sigma, "count": count,
            "sampling": _samp(q)}


def _approx(eps0: float, delta0: float, count: int) -> dict[str, Any]:
    return {"mechanism": "approx_dp", "eps0": eps0, "delta0": delta0, "count": count,
            "sampling": None}


def _case(cid: str, events: list[dict[str, Any]], deltas: list[float],
          epsilons: list[float] = (), neighboring: str = "add_remove",  # type: ignore
          note: str = "") -> dict[str, Any]:
    epsilons = [round(e, 6) for e in epsilons]
    out = {"id": cid, "scenario": {"neighboring": neighboring, "events": events},
           "deltas": list(deltas), "epsilons": list(epsilons)}
    if note:
        out["note"] = note
    return out


def quick_data() -> list[dict[str, Any]]:
    return [
        _case("gauss-k10", [_g(2.0, 10)], [1e-5], [2.0],
              note="10-fold Gaussian, closed form"),
        _case("gauss-het", [_g(1.5, 5), _g(3.0, 20)], [1e-6], [1.0],
              note="heterogeneous Gaussian, closed form"),
        _case("gauss-replace", [_g(4.0, 10)], [1e-5], [4.0], "replace_one",
              note="Gaussian under replace-one (sensitivity 2)"),
        _case("laplace-1", [_lap(1.0, 1)], [1e-3], [0.5], note="one Laplace step"),
        _case("laplace-3", [_lap(2.0, 3)], [1e-5], [1.0], note="3-fold Laplace (PLD engine)"),
        _case("rr-10-replace", [_rr(1.0, 10)], [1e-6], [5.0], "replace_one",
              note="10-fold RR(1) under replace-one"),
        _case("rr-10", [_rr(1.0, 10)], [1e-6], [5.0], note="10-fold RR(1), add/remove"),
        _case("pure-100", [_pure(1.0, 100)], [1e-5], [50.0],
              note="100 compositions of 1-DP (KOV)"),
        _case("approx-4", [_approx(0.5, 1e-6, 4)], [1e-5], [1.0],
              note="4-fold (0.5, 1e-6)-DP (KOV)"),
        _case("dpsgd-A", [_g(1.0, 1000, 0.01)], [1e-5], [1.0],
              note="standard DP-SGD scenario A"),
        _case("dpsgd-A-replace", [_g(1.0, 1000, 0.01)], [1e-5], [], "replace_one",
              note="scenario A under replace-one"),
        _case("mixed-small", [_g(2.0, 5), _lap(2.0, 2), _pure(0.5, 3)], [1e-5], [1.0],
              note="Gaussian + Laplace + pure DP"),
    ]


# the grid of the thorough set: every delta of DELTAS and every count of COUNTS appears in
# every family; extreme parameters at both ends (sigma 0.3 and 50, q 1e-4 and 1)
DELTAS = (1e-3, 1e-5, 1e-7, 1e-9, 1e-10, 1e-12)
COUNTS = (1, 10, 100, 1000, 10**4, 10**5)
RELATIONS = ("add_remove", "replace_one")


def _deltas(i: int, n: int) -> list[float]:
    """``n`` deltas of DELTAS, rotating with the scenario index ``i`` (the set covers all)."""
    return [DELTAS[(i + j * (len(DELTAS) // max(n, 1) or 1)) % len(DELTAS)] for j in range(n)]


def _fmt(x: float) -> str:
    return f"{x:g}".replace("e-0", "e-").replace("e+0", "e")


def thorough_data() -> list[dict[str, Any]]:
    """The thorough set (>= 120 scenarios), generated from the grids above.

    Closed-form families (unsampled Gaussian, RR, pure and approximate DP) take every
    combination and three deltas a scenario; the PLD-engine families (Laplace compositions,
    Poisson-subsampled Gaussian, Laplace and RR, mixtures) take a diagonal of the grid and one
    or two deltas, so that their references stay within the cost budget of the set.
    """
    out: list[dict[str, Any]] = []

    def add(cid: str, events: list[dict[str, Any]], n_deltas: int, eps: list[float],
            rel: str, note: str = "") -> None:
        out.append(_case(cid, events, _deltas(len(out), n_deltas), eps, rel, note))

    for rel in RELATIONS:
        r = "ar" if rel == "add_remove" else "ro"
        for sigma in (0.3, 1.0, 5.0, 50.0):
            for k in (1, 100, 10**4, 10**5):
                add(f"gauss-s{_fmt(sigma)}-k{_fmt(k)}-{r}", [_g(sigma, k)], 3,
                    [0.5 * math.sqrt(k) / sigma + 0.1], rel)
        for eps0 in (0.1, 1.0, 3.0):
            for k in (1, 10, 1000, 10**5):
                add(f"rr-e{_fmt(eps0)}-k{_fmt(k)}-{r}", [_rr(eps0, k)], 3,
                    [min(eps0 * k, 0.5 * eps0 * math.sqrt(k) + 0.2)], rel)
        for eps0 in (0.05, 2.0):
            for k in (1, 100, 10**4):
                add(f"pure-e{_fmt(eps0)}-k{_fmt(k)}-{r}", [_pure(eps0, k)], 3,
                    [min(eps0 * k, eps0 * math.sqrt(k) + 0.1)], rel)
        for eps0, d0 in ((0.5, 1e-8), (1.0, 1e-13)):
            for k in (1, 10, 1000):
                add(f"approx-e{_fmt(eps0)}-d{_fmt(d0)}-k{_fmt(k)}-{r}",
                    [_approx(eps0, d0, k)], 3, [min(eps0 * k, eps0 * math.sqrt(k))], rel)
        for b, k in ((0.5, 1), (2.0, 1), (10.0, 1), (2.0, 10), (10.0, 100), (50.0, 1000)):
            add(f"laplace-b{_fmt(b)}-k{_fmt(k)}-{r}", [_lap(b, k)], 2 if k == 1 else 1,
                [1.0], rel)
        for q, sigma, k in ((1e-4, 5.0, 10), (1e-3, 0.8, 10**4), (1e-2, 1.0, 1000),
                            (0.1, 5.0, 100), (1.0, 50.0, 10**5), (0.5, 0.3, 1)):
            if rel == "replace_one" and q <= 1e-3:
                continue  # the cost budget: the finest grids are audited under add/remove
            add(f"sgm-q{_fmt(q)}-s{_fmt(sigma)}-k{_fmt(k)}-{r}", [_g(sigma, k, q)], 1, [1.0],
                rel)
        add(f"het-gauss-{r}", [_g(1.5, 5), _g(3.0, 20), _g(0.8, 1)], 3, [1.0, 3.0], rel)
        add(f"het-pure-{r}", [_pure(0.5, 40), _pure(1.0, 30)], 2, [20.0], rel)
        add(f"het-approx-{r}", [_approx(0.5, 1e-6, 4), _approx(1.0, 1e-8, 3)], 2, [2.0], rel)
        add(f"mix-gauss-rr-{r}", [_g(2.0, 5), _rr(0.5, 3)], 2, [1.0], rel)
        add(f"mix-gauss-lap-pure-{r}", [_g(2.0, 5), _lap(2.0, 2), _pure(0.5, 3)], 1, [1.0],
            rel)
    for q, b, k in ((1e-3, 1.0, 1000), (0.05, 1.0, 50), (0.5, 10.0, 10)):
        add(f"sampled-laplace-q{_fmt(q)}-b{_fmt(b)}-k{_fmt(k)}", [_lap(b, k, q)], 1, [0.5],
            "add_remove")
    for q, eps0, k in ((1e-3, 1.0, 1000), (0.1, 1.0, 100), (0.5, 1.0, 10)):
        add(f"sampled-rr-q{_fmt(q)}-e{_fmt(eps0)}-k{_fmt(k)}", [_rr(eps0, k, q)], 1, [1.0],
            "add_remove")
    add("dpsgd-A", [_g(1.0, 1000, 0.01)], 3, [1.0, 2.0], "add_remove",
        note="standard DP-SGD scenario A")
    add("dpsgd-C-floor", [_g(1.1, 14062, Q_C)], 2, [2.0], "add_remove",
        note="standard DP-SGD scenario C")
    add("dpsgd-het", [_g(1.0, 500, 0.01), _g(2.0, 2000, 0.02)], 1, [1.0], "add_remove")
    add("mixed-issue", [_g(1.1, 14062, 0.0042667), _lap(2.0, 3), _rr(1.0, 10),
                        _pure(0.5, 4), _approx(0.5, 1e-6, 4)], 1, [15.0], "add_remove",
        note="the composition of the issue's scenario example")
    # the discrete mechanisms (appended last: the delta rotation of the cases above is kept)
    for rel in RELATIONS:
        r = "ar" if rel == "add_remove" else "ro"
        for b, k in ((2.0, 1), (0.5, 10)):
            add(f"dlaplace-b{_fmt(b)}-k{_fmt(k)}-{r}", [_dlap(b, k)], 1, [1.0], rel)
        for sigma, k in ((1.5, 1), (4.0, 20)):
            add(f"dgauss-s{_fmt(sigma)}-k{_fmt(k)}-{r}", [_dgauss(sigma, k)], 1, [1.0], rel)
    add("sampled-dgauss-q0.1-s2-k50", [_dgauss(2.0, 50, 0.1)], 1, [1.0], "add_remove")
    add("sampled-dlaplace-q0.05-b1-k50", [_dlap(1.0, 50, 0.05)], 1, [0.5], "add_remove")
    return out


SETS = {
    "quick": (quick_data, {"rel_width": 1e-2, "ref_seconds": 20.0}),
    "thorough": (thorough_data, {"rel_width": 5e-3, "ref_seconds": 30.0}),
}


def scenario_set(name_or_path: str) -> tuple[list[ScenarioCase], dict[str, Any]]:
    """The cases of a built-in set (``quick``, ``thorough``) or of a scenario file, with the
    reference accuracy options that go with them."""
    if name_or_path in SETS:
        data, opts = SETS[name_or_path]
        return parse_cases(data(), name_or_path), dict(opts)
    if not name_or_path:
        raise InvalidParameter("--scenarios must be quick, thorough or a JSON file")
    return load_cases(name_or_path), {"rel_width": 1e-3, "ref_seconds": 60.0}


__all__ = ["SETS", "quick_data", "scenario_set", "thorough_data"]
