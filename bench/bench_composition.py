"""Benchmarks of the composition family (run by hand, never in CI).

    /work/venv/bin/python bench/bench_composition.py

- KOV-DELTA.delta at k = 10^3, 10^4, 10^5 with 50 digits (arb enclosure, the ``dpverify eval``
  engine), and KOV-EPS.eps at the same k;
- MV-OPT.delta_pure by subset enumeration (meet in the middle) at k = 16 and 20, and the exact
  lattice dynamic program (k = 100 on a 0.01 lattice) and MV-APPROX (k = 50, step 0.01);
- branch and bound: boxes per second of the interval route on the ordering claims.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction
from typing import Any

from dpverify.theorems import get
from dpverify.theorems.core import bind
from dpverify.theorems.ctx import ArbCtx
from dpverify.verifiers.evaluation import evaluate


def _timed(fn: Any, repeat: int = 3) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def bench_eval(target: str, digits: int, **params: str) -> None:
    name, _, ev = target.partition(".")
    evaluator = get(name).evaluator(ev or None)
    bound = bind(evaluator.params, params, target)
    secs, res = _timed(lambda: evaluate(evaluator, bound, digits))
    shown = ", ".join(f"{k}={v}" for k, v in params.items())
    print(f"  {target}({shown}) @{digits} digits: {secs * 1000:8.1f} ms  "
          f"value {res.value[:24]}...  (arb enclosure, {res.prec} bits)")


def bench_mv(k: int, seed: int = 0) -> None:
    from dpverify.theorems.formulas.kov_mv import mv_delta_pure

    rng = random.Random(seed)
    eps_list = tuple(Fraction(rng.randint(50, 1000), 997) for _ in range(k))
    ctx = ArbCtx(140)
    secs, v = _timed(lambda: ctx.run(mv_delta_pure, eps_list=eps_list, eps=Fraction(1)), 1)
    print(f"  MV-OPT.delta_pure, k = {k} (subset enumeration, 2^{k} subsets): "
          f"{secs * 1000:8.1f} ms  value {v.str(12)}")


def bench_lattice() -> None:
    from dpverify.theorems.formulas.kov_mv import mv_approx_delta_upper, mv_delta_pure

    rng = random.Random(1)
    ctx = ArbCtx(140)
    eps_list = tuple(Fraction(rng.randint(1, 30), 100) for _ in range(100))
    secs, v = _timed(lambda: ctx.run(mv_delta_pure, eps_list=eps_list, eps=Fraction(3)), 1)
    print(f"  MV-OPT.delta_pure, k = 100 on the 0.01 lattice (exact DP): {secs * 1000:8.1f} ms"
          f"  value {v.str(12)}")
    eps_list = tuple(Fraction(rng.randint(1, 3000), 9973) for _ in range(50))
    secs, v = _timed(lambda: ctx.run(mv_approx_delta_upper, eps_list=eps_list,
                                     eps=Fraction(2), step=Fraction(1, 100)), 1)
    print(f"  MV-APPROX.delta_upper, k = 50, step 0.01 (DP):           {secs * 1000:8.1f} ms"
          f"  value {v.str(12)}")


def bench_branch_and_bound() -> None:
    from dpverify.theorems.composition import terms as c
    from dpverify.verifiers.interval import verify_box
    from dpverify.verifiers.verdict import Budget

    for claim, bound in (("KOV-34 claim 1", c.kov34_bound), ("KOV-OPT claim 4", c.stk_bound),
                         ("DRV-ADV claim 1", c.drv_bound), ("BASIC claim 3", c.basic_bound)):
        check = c.order_check(bound, claim)
        t0 = time.perf_counter()
        status, _, ev = verify_box(check, check.region, Budget(seconds=600, boxes=200000))
        secs = time.perf_counter() - t0
        print(f"  {claim:16s} {check.region.describe()}: {status}, "
              f"{ev['boxes_processed']} boxes in {secs:.2f} s = "
              f"{ev['boxes_processed'] / secs:.0f} boxes/s")


def main() -> None:
    print("KOV-DELTA / KOV-EPS at 50 digits")
    for k in (1000, 10_000, 100_000):
        eps = {1000: "3", 10_000: "8", 100_000: "20"}[k]
        bench_eval("KOV-DELTA.delta", 50, eps0="0.05", delta0="0", k=str(k), eps=eps)
    for k in (1000, 10_000, 100_000):
        bench_eval("KOV-EPS.eps", 50, eps0="0.01", delta0="0", k=str(k), delta="1e-6")
    print("MV-OPT exact")
    for k in (16, 20):
        bench_mv(k)
    bench_lattice()
    print("branch and bound (interval route, quick budget region)")
    bench_branch_and_bound()


if __name__ == "__main__":
    main()
