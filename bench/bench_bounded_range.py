"""Benchmarks of the bounded-range family (run by hand, never in CI).

    /work/venv/bin/python bench/bench_bounded_range.py

- DDR-T3.delta at k = 10^3 and 10^4 through the ``dpverify eval`` engine (a rigorous arb
  enclosure at 15 and 30 digits: the certified pruned search over the Thm 3 candidates), with
  the number of binomial sums it needed, and the double-precision path (golden section over l)
  that the DDR-FIG1 searches use;
- DDR-L32: the N = 1000 lattice enclosure up to k = 8, and the k = 2 branch and bound;
- DDR-FIG1: the query counts of one budget (eps0 = 0.01, budget 20: k up to 4.2e5).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.theorems.ctx import ArbCtx, FloatCtx, arb_precision
from dpverify.theorems.formulas.br_figure1 import _fig1_search, figure1_series
from dpverify.theorems.formulas.ddr_adaptive import _LATTICES, l32_bounds, l32_delta
from dpverify.theorems.formulas.ddr_candidates import _T3Search
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.verifiers.evaluation import evaluate


def _timed(fn: Any, repeat: int = 1) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def bench_t3(eps0: str, k: int, eps: str) -> None:
    evaluator = get("DDR-T3").evaluator("delta")
    bound = bind(evaluator.params, {"eps0": eps0, "k": str(k), "eps": eps}, "DDR-T3.delta")
    for digits in (15, 30):
        secs, res = _timed(lambda d=digits: evaluate(evaluator, bound, d))
        print(f"  DDR-T3.delta(eps0={eps0}, k={k}, eps={eps}) @{digits} digits: "
              f"{secs:7.2f} s  value {res.value}  enclosure [{res.enclosure[0]}, "
              f"{res.enclosure[1]}]")
    ctx = ArbCtx(96)
    with arb_precision(96):
        search = _T3Search(ctx, Fraction(eps0), k, Fraction(eps))
        secs, _ = _timed(search.run)
    print(f"      pruned search at 96 bits: {secs:6.2f} s, {search.evaluations} binomial sums "
          f"({len(search.values)} candidates evaluated of "
          f"{k}), block bounds for the rest")
    secs, v = _timed(lambda: FloatCtx().run(t3_delta, eps0=Fraction(eps0), k=k,
                                            eps=Fraction(eps)), repeat=3)
    print(f"      double-precision path: {secs * 1000:7.1f} ms  value {v!r}")


def bench_l32() -> None:
    ctx = ArbCtx(128)
    for k in (2, 4, 6, 8):
        _LATTICES.clear()
        secs, (lb, ub) = _timed(lambda kk=k: ctx.run(
            lambda c, **_: l32_bounds(c, Fraction(1, 2), kk, Fraction(0))))
        print(f"  DDR-L32 lattice (N = 1000) eps0 = 0.5, k = {k}, eps = 0: {secs:6.2f} s  "
              f"[{lb.str(12, radius=False)}, {ub.str(12, radius=False)}]")
    secs, v = _timed(lambda: ArbCtx(132).run(l32_delta, eps0=Fraction(1, 2), k=2,
                                             eps=Fraction(0)))
    print(f"  DDR-L32 k = 2 branch and bound at 132 bits: {secs:6.2f} s  {v.str(30)}")


def bench_fig1() -> None:
    _fig1_search.cache_clear()
    secs, s = _timed(lambda: figure1_series("0.01", ["20"], "1e-6"))
    print(f"  figure1_series(0.01, [20], 1e-6): {secs:6.2f} s  "
          + ", ".join(f"{k}={v[0]}" for k, v in s.items()))


def main() -> None:
    print("DDR-T3 (non-adaptive BR optimum)")
    for eps0, eps in (("0.1", "5"), ("0.01", "0.5")):
        bench_t3(eps0, 1000, eps)
    for eps0, eps in (("0.1", "5"), ("0.01", "1")):
        bench_t3(eps0, 10000, eps)
    print("DDR-L32 (adaptive)")
    bench_l32()
    print("DDR-FIG1")
    bench_fig1()


if __name__ == "__main__":
    main()
