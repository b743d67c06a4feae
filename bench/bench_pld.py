"""Benchmark: certified PLD accounting against dp_accounting and prv_accountant, one run.

Run by hand (never in CI), optionally with ``pip install dp-accounting prv-accountant``:

    python bench/bench_pld.py [--rel-width 1e-5] [--max-seconds 150] [--item C ...]
                              [--method exact --method fft] [--no-model]

Items (issue 14): the catalogue's DP-SGD scenarios A, B and C (subsampling.md, "Standard DP-SGD
scenarios"; add/remove, values copied here), ``K1e6`` (q = 1e-3, sigma = 0.8, k = 10^6,
delta = 1e-6, target width 1e-4) and ``HET`` (two subsampled Gaussians, 10^4 steps each, target
1e-4). Every measurement runs in a forked child of this one process, which reports its own CPU
time (user + system, all threads: the machine is shared, so wall time says little) and its peak
resident set size (``ru_maxrss``; the parent's size at the fork is printed as the baseline).
``--repeat N`` (default 3) runs every measurement N times, each in a fresh child, and reports
the least CPU time and the largest RSS of the N (the least is the run least disturbed by the
rest of the machine, as in ``timeit``; every side of a row is treated alike).
dp_accounting's and prv_accountant's numbers are floating-point estimates, not enclosures: a
value below the certified lower end would be a privacy bug, one above the upper end is loose.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import warnings
from fractions import Fraction
from typing import Any

from dpverify.theorems.numerics import pld

# subsampling.md, "Standard DP-SGD scenarios" (dpverify.theorems.subsampling.scenarios.SCENARIOS)
ITEMS: dict[str, dict[str, Any]] = {
    "A": {"parts": [("1/100", "1", 1000)], "delta": "1e-5", "target": 1e-5},
    "B": {"parts": [("1/1000", "4/5", 10000)], "delta": "1e-6", "target": 1e-5},
    "C": {"parts": [("256/60000", "11/10", 14062)], "delta": "1e-5", "target": 1e-5},
    "K1e6": {"parts": [("1/1000", "4/5", 10**6)], "delta": "1e-6", "target": 1e-4},
    "HET": {"parts": [("1/100", "6/5", 10000), ("1/250", "9/10", 10000)], "delta": "1e-5",
            "target": 1e-4},
}


def _usage() -> tuple[float, float]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_maxrss / 1024


def _in_child(fn: Any, *args: Any) -> dict[str, Any]:
    """Run ``fn(*args)`` in a forked child; its result plus the child's CPU seconds and peak
    RSS (MB)."""

    def target(conn: Any) -> None:
        warnings.filterwarnings("ignore")
        try:
            out = fn(*args)
        except Exception as exc:  # reported, not hidden
            out = {"error": f"{type(exc).__name__}: {exc}"}
        cpu, rss = _usage()
        out.update(cpu=cpu, rss=rss)
        conn.send(out)
        conn.close()

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=target, args=(child,))
    proc.start()
    out = parent.recv()
    proc.join()
    return out


def _least_of(repeat: int, fn: Any, *args: Any) -> dict[str, Any]:
    """:func:`_in_child` ``repeat`` times: the result of the run with the least CPU time, with
    the largest peak RSS of all the runs (an error is reported at once)."""
    runs = []
    for _ in range(max(1, repeat)):
        out = _in_child(fn, *args)
        if "error" in out:
            return out
        runs.append(out)
    best = min(runs, key=lambda r: r["cpu"])
    return {**best, "rss": max(r["rss"] for r in runs), "cpus": [r["cpu"] for r in runs]}


def _runs(r: dict[str, Any]) -> str:
    """The CPU seconds of every run of a row, as shown next to the least."""
    return "(runs " + ", ".join(f"{c:.2f}" for c in r.get("cpus", [r["cpu"]])) + ")"


def _parts(item: dict[str, Any]) -> list[tuple[Fraction, Fraction, int]]:
    return [(Fraction(q), Fraction(s), k) for q, s, k in item["parts"]]


def certified(item: dict[str, Any], rel_width: float, max_seconds: float,
              method: str) -> dict[str, Any]:
    delta = Fraction(item["delta"])
    directions = pld.sgm_composition(_parts(item))
    enc = pld.enclose_eps_composition(directions, delta, rel_width=rel_width,
                                      max_seconds=max_seconds, method=method)
    model = enc.model and (enc.model["h"], enc.model["rel_width"], enc.model["cpu"])
    return {"lo": float(enc.lo), "hi": float(enc.hi), "width": enc.rel_width(), "h": str(enc.h),
            "passes": [(p["h"], p["rel_width"], p["cpu"], p.get("steps")) for p in enc.passes],
            "model": model}


def dp_accounting_pld(item: dict[str, Any], disc: float) -> dict[str, Any]:
    from dp_accounting import dp_event
    from dp_accounting.pld import pld_privacy_accountant

    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=disc)
    for q, s, k in _parts(item):
        acc.compose(dp_event.PoissonSampledDpEvent(float(q), dp_event.GaussianDpEvent(float(s))),
                    k)
    return {"eps": acc.get_epsilon(float(Fraction(item["delta"])))}


def prv(item: dict[str, Any], eps_error: float) -> dict[str, Any]:
    from prv_accountant import PoissonSubsampledGaussianMechanism, PRVAccountant

    parts = _parts(item)
    prvs = [PoissonSubsampledGaussianMechanism(noise_multiplier=float(s),
                                               sampling_probability=float(q))
            for q, s, _k in parts]
    ks = [k for _q, _s, k in parts]
    delta = float(Fraction(item["delta"]))
    acc = PRVAccountant(prvs=prvs, max_self_compositions=ks, eps_error=eps_error,
                        delta_error=delta / 100)
    lo, est, hi = acc.compute_epsilon(delta=delta, num_self_compositions=ks)
    return {"eps": est, "bracket": (lo, hi)}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rel-width", type=float, help="override every item's target width")
    parser.add_argument("--max-seconds", type=float, default=150.0,
                        help="wall-time budget of each certified run (the driver's)")
    parser.add_argument("--item", action="append", choices=sorted(ITEMS))
    parser.add_argument("--method", action="append", choices=pld.METHODS)
    parser.add_argument("--repeat", type=int, default=3, help="runs of every measurement "
                        "(each in a fresh child): the least CPU and the largest RSS are shown")
    parser.add_argument("--prv-eps-error", type=float, default=1e-2)
    parser.add_argument("--no-prv", action="store_true", help="skip prv_accountant (its memory "
                        "grows to several GB at k = 10^6)")
    parser.add_argument("--no-model", action="store_true", help="the driver's first step from a "
                        "rigorous coarse pass instead of the float model (pld/predict.py)")
    args = parser.parse_args()
    if args.no_model:
        from dpverify.theorems.numerics.pld import enclose

        enclose.MODEL_METHODS = ()
    print(f"load average {os.getloadavg()}, {os.cpu_count()} cpus, parent RSS "
          f"{_usage()[1]:.0f} MB at the forks")
    for name in args.item or list(ITEMS):
        item = ITEMS[name]
        target = args.rel_width or item["target"]
        print(f"\n== {name}: parts (q, sigma, k) = {item['parts']}, delta = {item['delta']}, "
              f"target width {target:g}")
        rows: list[tuple[str, dict[str, Any]]] = []
        for method in args.method or [pld.DEFAULT_METHOD]:
            rows.append((f"dpverify {method}",
                         _least_of(args.repeat, certified, item, target, args.max_seconds,
                                   method)))
        try:
            import dp_accounting  # noqa: F401

            for disc in (1e-3, 1e-4):
                rows.append((f"dp_accounting PLD {disc:g}",
                             _least_of(args.repeat, dp_accounting_pld, item, disc)))
        except ImportError:
            print("  dp_accounting not installed")
        try:
            if args.no_prv:
                raise ImportError
            import prv_accountant  # noqa: F401

            rows.append((f"prv_accountant {args.prv_eps_error:g}",
                         _least_of(args.repeat, prv, item, args.prv_eps_error)))
        except ImportError:
            print("  prv_accountant skipped or not installed")
        lo = hi = None
        for label, r in rows:
            if "error" in r:
                print(f"  {label:<26} ERROR {r['error']}")
                continue
            if "lo" in r:
                lo, hi = r["lo"], r["hi"]
                print(f"  {label:<26} [{lo:.7f}, {hi:.7f}] width {r['width']:.2e} "
                      f"cpu {r['cpu']:7.2f} s {_runs(r)} rss {r['rss']:6.0f} MB  passes "
                      f"(h, width, cpu, each direction's step) "
                      f"{r['passes']}  float model (h, width, cpu) {r['model']}")
                continue
            eps = r["eps"]
            where = ""
            if lo is not None and hi is not None:
                where = "inside" if lo <= eps <= hi else ("BELOW (bug)" if eps < lo else "above")
            extra = f" bracket [{r['bracket'][0]:.5f}, {r['bracket'][1]:.5f}]" \
                if "bracket" in r else ""
            print(f"  {label:<26} {eps:.7f} {where:<11} cpu {r['cpu']:7.2f} s {_runs(r)} "
                  f"rss {r['rss']:6.0f} MB{extra}")


if __name__ == "__main__":
    main()
