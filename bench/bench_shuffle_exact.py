"""Benchmark: CPU time of the shuffle-model engines (FMT21-NUM, SHUFFLE-RR-EXACT) against n.

Run by hand (never in CI):

    python bench/bench_shuffle_exact.py [--bits 132]

Measures, in arb at the given precision, the CPU time (``time.process_time``: the machine is
shared, wall time says little) of one FMT21-NUM.delta (the clone-pair window grows like
sqrt(n)), one FMT21-NUM.eps (15 to 25 deltas), one binary SHUFFLE-RR-EXACT.delta (O(n^2)) and one
k-ary enumeration, and prints the width of each enclosure. The cost limits of the evaluators
(n <= 10^6 and 10^5 for FMT21-NUM.delta/.eps, n <= 500 and 300 for SHUFFLE-RR-EXACT.delta/.eps,
C(n+k-2, k-1) C(n+k-1, k-1) <= 10^5) were set from these numbers.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import ArbCtx
from dpverify.theorems.formulas.shuffle_exact import (
    fmt21_num_delta,
    fmt21_num_eps,
    shuffle_rr_delta,
)


def _measure(label: str, run: Callable[[], Any]) -> None:
    start = time.process_time()
    value = run()
    seconds = time.process_time() - start
    rad = float(flint.arb(value).rad())
    print(f"{label:<48} {seconds:8.3f} s   value {float(flint.arb(value).mid()):.6e}  "
          f"radius {rad:.1e}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bits", type=int, default=132)
    args = parser.parse_args()
    ctx = ArbCtx(args.bits)
    half, one = Fraction(1, 2), Fraction(1)
    for n in (10**3, 10**4, 10**5, 10**6):
        _measure(f"FMT21-NUM.delta eps0=1/2 n={n} eps=1/50",
                 lambda n=n: ctx.run(fmt21_num_delta, eps0=half, n=n, eps=Fraction(1, 50)))
    for n in (10**3, 10**4, 10**5):
        _measure(f"FMT21-NUM.eps eps0=1/2 n={n} delta=1e-6",
                 lambda n=n: ctx.run(fmt21_num_eps, eps0=half, n=n, delta=Fraction(1, 10**6)))
    for n in (50, 100, 200, 500):
        _measure(f"SHUFFLE-RR-EXACT.delta eps0=1 n={n} eps=1/10",
                 lambda n=n: ctx.run(shuffle_rr_delta, eps0=one, n=n, eps=Fraction(1, 10)))
    for n, k in ((10, 3), (20, 3), (8, 4), (10, 4)):
        _measure(f"SHUFFLE-RR-EXACT.delta eps0=1 n={n} k={k} eps=3/10",
                 lambda n=n, k=k: ctx.run(shuffle_rr_delta, eps0=one, n=n,
                                          eps=Fraction(3, 10), k=k))


if __name__ == "__main__":
    main()
