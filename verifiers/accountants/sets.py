"""The built-in scenario sets of the audit: ``quick`` (CI; all built-in adapters in under three
minutes on two cores) and ``thorough`` (every family of the issue, delta from 1e-3 to 1e-10).

The DP-SGD scenarios are the catalogue's standard ones (``subsampling.md``, *Standard DP-SGD
scenarios*: A q=0.01 sigma=1 k=1000; B q=0.001 sigma=0.8 k=10000; C q=256/60000 sigma=1.1
k=14062/14063), written with q to 17 significant digits where it is not a short decimal.
Each set also fixes the accuracy of its PLD-engine references (``rel_width``, ``ref_seconds``).
"""

from __future__ import annotations

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


def _approx(eps0: float, delta0: float, count: int) -> dict[str, Any]:
    return {"mechanism": "approx_dp", "eps0": eps0, "delta0": delta0, "count": count,
            "sampling": None}


def _case(cid: str, events: list[dict[str, Any]], deltas: list[float],
          epsilons: list[float] = (), neighboring: str = "add_remove",  # type: ignore
          note: str = "") -> dict[str, Any]:
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


def thorough_data() -> list[dict[str, Any]]:
    deltas = [1e-3, 1e-5, 1e-7, 1e-10]
    return [
        _case("gauss-k10", [_g(2.0, 10)], deltas, [0.5, 2.0, 4.0]),
        _case("gauss-k1000", [_g(20.0, 1000)], deltas, [1.0]),
        _case("gauss-het", [_g(1.5, 5), _g(3.0, 20), _g(0.8, 1)], deltas, [1.0, 3.0]),
        _case("gauss-replace", [_g(4.0, 10)], deltas, [4.0], "replace_one"),
        _case("laplace-1", [_lap(1.0, 1)], [1e-3, 1e-2], [0.0, 0.5]),
        _case("laplace-3", [_lap(2.0, 3)], deltas, [1.0]),
        _case("laplace-20", [_lap(10.0, 20)], deltas, [1.0]),
        _case("laplace-replace", [_lap(4.0, 5)], deltas, [1.0], "replace_one"),
        _case("laplace-sampled", [_lap(1.0, 50, 0.05)], deltas, [0.5]),
        _case("rr-10-replace", [_rr(1.0, 10)], deltas, [5.0], "replace_one"),
        _case("rr-10", [_rr(1.0, 10)], deltas, [5.0]),
        _case("rr-sampled", [_rr(1.0, 100, 0.1)], deltas, [1.0]),
        _case("pure-100", [_pure(1.0, 100)], deltas, [50.0]),
        _case("pure-het", [_pure(0.5, 40), _pure(1.0, 30)], deltas, [20.0]),
        _case("approx-4", [_approx(0.5, 1e-6, 4)], deltas, [1.0]),
        _case("approx-het", [_approx(0.5, 1e-6, 4), _approx(1.0, 1e-8, 3)], deltas, [2.0]),
        _case("dpsgd-A", [_g(1.0, 1000, 0.01)], deltas, [1.0, 2.0]),
        _case("dpsgd-B", [_g(0.8, 10000, 0.001)], [1e-5, 1e-6, 1e-10], [1.0]),
        _case("dpsgd-C-floor", [_g(1.1, 14062, Q_C)], [1e-5, 1e-7, 1e-10], [2.0]),
        _case("dpsgd-C-ceil", [_g(1.1, 14063, Q_C)], [1e-5], []),
        _case("dpsgd-A-replace", [_g(1.0, 1000, 0.01)], deltas, [2.0], "replace_one"),
        _case("dpsgd-het", [_g(1.0, 500, 0.01), _g(2.0, 2000, 0.02)], deltas, [1.0]),
        _case("mixed-small", [_g(2.0, 5), _lap(2.0, 2), _pure(0.5, 3)], deltas, [1.0]),
        _case("mixed-issue", [_g(1.1, 14062, 0.0042667), _lap(2.0, 3), _rr(1.0, 10),
                              _pure(0.5, 4), _approx(0.5, 1e-6, 4)], [1e-3, 1e-5], [15.0],
              note="the composition of the issue's scenario example"),
    ]


SETS = {
    "quick": (quick_data, {"rel_width": 1e-2, "ref_seconds": 20.0}),
    "thorough": (thorough_data, {"rel_width": 1e-3, "ref_seconds": 120.0}),
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
