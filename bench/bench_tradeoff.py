"""Benchmark: certified TPR at an FPR and the GDP estimate from the PLD pair, one run.

Run by hand (never in CI), optionally with ``pip install dp-accounting``:

    python bench/bench_tradeoff.py [--rel-width 1e-3] [--max-seconds 60]

Items: DP-SGD scenario A of subsampling.md (q = 0.01, sigma = 1, k = 1000, add/remove) and a
100-step run (k = 100), TPR at fpr in {1e-6, 1e-3, 0.1} and the GDP estimate on
dp_accounting's default FPR grid (:func:`dpverify.theorems.numerics.pld.tradeoff.enclose_mu`).
CPU time of this process (the machine is shared: wall time says little). dp_accounting's
``get_true_positive_rates`` / ``get_gdp_parameter_estimate`` are float estimates: a TPR below
the certified lower end would under-state an attacker's power.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import tradeoff

ITEMS = {"A": (Fraction(1, 100), Fraction(1), 1000), "k100": (Fraction(1, 100), Fraction(1), 100)}
FPRS = (Fraction(1, 10**6), Fraction(1, 1000), Fraction(1, 10))


def _dp_accounting(q: Fraction, sigma: Fraction, k: int) -> Any:
    try:
        import dp_accounting
        from dp_accounting.pld import PLDAccountant
    except ImportError:
        return None
    acc = PLDAccountant()
    acc.compose(dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(
        float(q), dp_accounting.GaussianDpEvent(float(sigma))), k))
    return acc


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rel-width", type=float, default=1e-3)
    ap.add_argument("--max-seconds", type=float, default=60.0)
    args = ap.parse_args()
    for name, (q, sigma, k) in ITEMS.items():
        dirs = [[(p, k)] for p in pld.sgm_pairs(q, sigma, "add_remove")]
        other = _dp_accounting(q, sigma, k)
        for fpr in FPRS:
            t0 = time.process_time()
            e = tradeoff.enclose_tpr(dirs, fpr, args.rel_width, args.max_seconds)
            dt = time.process_time() - t0
            ref = "" if other is None else \
                f"  dp_accounting {float(other.get_true_positive_rates(float(fpr))):.10g}"
            print(f"{name} tpr@{float(fpr):g}: [{float(e.lo):.10g}, {float(e.hi):.10g}] "
                  f"width {e.rel_width():.2g}, {len(e.passes)} passes, {dt:.1f} s CPU{ref}")
        t0 = time.process_time()
        e = tradeoff.enclose_mu(dirs, None, args.rel_width, args.max_seconds)
        dt = time.process_time() - t0
        ref = "" if other is None else \
            f"  dp_accounting {float(other.get_gdp_parameter_estimate()):.10g}"
        print(f"{name} mu_estimate: [{float(e.lo):.10g}, {float(e.hi):.10g}] width "
              f"{e.rel_width():.2g}, {len(e.passes)} passes, {dt:.1f} s CPU{ref}")


if __name__ == "__main__":
    main()
