"""``check_bound``: is a new privacy bound sound against the certified optimum, how tight, where?

The steps, each with its share of an up-front time budget (a budget that runs out before the
search completes gives ``inconclusive``, never ``passed``):

1. search (:mod:`.search`) for a point where the bound is on the wrong side of the reference,
   every candidate decided with the reference's rigorous enclosure;
2. when nothing is found, the target is a formula string and the reference is monotone in every
   parameter: a proof over the whole region by branch and bound (:mod:`.prove`);
3. tightness and the catalogue's known bounds (:mod:`.tightness`), and plot data.

Verdicts: ``failed`` (a certified counterexample), ``proved`` (every box of the region
certified), ``passed`` (the search completed, every evaluated point certified sound),
``inconclusive`` (time ran out; or a margin below the certification resolution; or points where
the target or the reference could not be evaluated — all counted in the document), ``error``.
Exit codes: 0 proved/passed, 1 failed or inconclusive (not shown sound), 3 error.
"""

from __future__ import annotations

import concurrent.futures as cf
import inspect
import math
import random
import shlex
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.bounds import tightness as tight
from dpverify.verifiers.bounds.prove import ProofLog, prove
from dpverify.verifiers.bounds.references import Reference, make_reference
from dpverify.verifiers.bounds.region import build_region, show_value
from dpverify.verifiers.bounds.remote import Remote
from dpverify.verifiers.bounds.search import Checker, PointResult, SearchPlan, search
from dpverify.verifiers.bounds.target import (
    DEFAULT_EVAL_TIMEOUT,
    CallableTarget,
    FormulaTarget,
    Target,
    make_target,
)

SCHEMA = "dpverify/check-bound-v1"
VERDICTS = ("proved", "passed", "failed", "inconclusive", "error")
EXIT_CODES = {"proved": 0, "passed": 0, "failed": 1, "inconclusive": 1, "error": 3}

# examples, refinement rounds / seeds / neighbours, grid points per parameter
PLANS = {
    ("quick", "fast"): (SearchPlan(300, 8, 8, 10), 6),
    ("thorough", "fast"): (SearchPlan(2000, 10, 12, 12, spread=2048), 10),
    ("quick", "slow"): (SearchPlan(12, 2, 2, 3, max_corners=16, spread=8), 3),
    ("thorough", "slow"): (SearchPlan(100, 4, 4, 4, spread=64), 5),
}
BUDGETS = {"quick": 60.0, "thorough": 1800.0}
SEARCH_SHARE, PROOF_SHARE = 0.55, 0.8  # cumulative fractions of the budget
MAX_BOXES = 200_000


@dataclass(frozen=True)
class Options:
    kind: str = "eps"
    lower: bool = False
    profile: str = "quick"
    budget: float | None = None
    seed: int | None = None
    eval_timeout: float = DEFAULT_EVAL_TIMEOUT
    plots: bool = True


def _mapping(ref: Reference, maps: Mapping[str, str]) -> dict[str, str]:
    """bound name -> reference name, checked."""
    out: dict[str, str] = {}
    for bound_name, ref_name in maps.items():
        if not str(bound_name).isidentifier():
            raise InvalidParameter(f"--map {bound_name}={ref_name}: {bound_name!r} is not a "
                                   "parameter name")
        ref.spec(ref_name)
        out[str(bound_name)] = ref_name
    if len(set(out.values())) != len(out):
        raise InvalidParameter("--map names a reference parameter twice")
    return out


def _accepted(fn: Callable[..., Any]) -> set[str] | None:
    """Keyword names a callable accepts (None: any, it has **kwargs or no signature)."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return None
    return {n for n, p in sig.parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _translator(target: Target, ref_to_bound: Mapping[str, str], mentioned: set[str]
                ) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    if isinstance(target, CallableTarget):
        accepted = _accepted(target.fn)
        wanted = None if accepted is None else accepted
    else:
        wanted = set(target.names)

    def to_target(point: Mapping[str, Any]) -> dict[str, Any]:
        out = {}
        for name, v in point.items():
            b = ref_to_bound.get(name, name)
            if wanted is None:
                if name in mentioned:
                    out[b] = v
            elif b in wanted:
                out[b] = v
        return out

    return to_target


def _floats(lo: Any, hi: Any) -> list[float]:
    from dpverify.verifiers.accountants.reference import Bound

    return list(Bound(lo, hi, "").floats())


def _reproduce(target: Target, ref: Reference, opts: Options, maps: Mapping[str, str],
               point: Mapping[str, Any]) -> str:
    fixed = []
    for k, v in point.items():
        shown = show_value(v)
        fixed.append(f"{k}={','.join(map(str, shown)) if isinstance(shown, list) else shown}")
    importable = not isinstance(target, CallableTarget) or (
        ":" in target.text and "<" not in target.text and "." not in target.text.split(":")[1])
    if not importable:
        region = ", ".join(f"{k!r}: {show_value(v)!r}" for k, v in point.items())
        return (f"dpverify.check_bound(<your callable>, against={ref.name!r}, kind={opts.kind!r}"
                f"{', lower=True' if opts.lower else ''}, region={{}}, fixed={{{region}}})")
    parts = ["dpverify", "check-bound", target.text, "--against", ref.name, "--kind", opts.kind]
    if opts.lower:
        parts.append("--lower")
    for f in fixed:
        parts += ["--fixed", f]
    for b, r in maps.items():
        parts += ["--map", f"{b}={r}"]
    return " ".join(shlex.quote(p) for p in parts)


def _counterexample(r: PointResult, target: Target, ref: Reference, opts: Options,
                    maps: Mapping[str, str]) -> dict[str, Any]:
    assert r.reference is not None
    r_lo, r_hi = r.reference
    t_lo, t_hi = r.target.lo, r.target.hi
    gap = (Fraction(r_lo) - Fraction(t_hi)) if not opts.lower else (
        Fraction(t_lo) - Fraction(r_hi))  # type: ignore[arg-type]
    out: dict[str, Any] = {k: show_value(v) for k, v in r.point.items()}
    out.update({
        "bound": _floats(t_lo, t_hi) if t_lo != t_hi else float(t_lo),  # type: ignore[arg-type]
        "reference": _floats(r_lo, r_hi),
        "margin": _floats(gap, gap)[0],
        "relative_margin": r.margin,
        "reproduce": _reproduce(target, ref, opts, maps, r.point),
    })
    return out


def _examples(rs: list[PointResult], n: int = 5) -> list[dict[str, Any]]:
    return [{"point": {k: show_value(v) for k, v in r.point.items()}, "status": r.status,
             "problem": r.target.problem, "detail": r.detail or r.target.detail}
            for r in rs[:n]]


def _verdict(checker: Checker, log: Any, proof: ProofLog | None) -> tuple[str, str]:
    results = list(checker.results.values())
    counts = Counter(r.status for r in results)
    if counts["violated"]:
        return "failed", (f"certified counterexample: the bound is on the wrong side of the "
                          f"optimum at {counts['violated']} of {len(results)} points")
    if proof is not None and proof.status == "proved":
        return "proved", f"sound on the whole region: {proof.reason} by branch and bound"
    if not log.complete:
        return "inconclusive", f"{log.stop_reason}; no counterexample in {len(results)} points"
    problems = []
    if counts["target_problem"]:
        kinds = Counter(r.target.problem for r in results if r.status == "target_problem")
        problems.append(f"the bound could not be evaluated at {counts['target_problem']} "
                        f"points ({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items()))})")
    if counts["reference_error"]:
        problems.append(f"the reference could not be enclosed at {counts['reference_error']} "
                        "points")
    if counts["unresolved"]:
        problems.append(f"at {counts['unresolved']} points the bound equals the optimum to "
                        "within the certification resolution (neither certified sound nor "
                        "refuted there)")
    if problems:
        return "inconclusive", "; ".join(problems)
    if not counts["sound"]:
        return "inconclusive", "no point of the region was checked"
    how = "" if proof is None else f" (proof {proof.status}: {proof.reason})"
    return "passed", (f"no counterexample: all {counts['sound']} points searched are certified "
                      f"sound{how}")


def check_bound(target: Any, *, against: str, region: Mapping[str, Any],
                fixed: Mapping[str, Any] | None = None, maps: Mapping[str, str] | None = None,
                options: Options = Options(), command: str | None = None,
                progress: Callable[[str], None] | None = None,
                executor: cf.Executor | None = None) -> dict[str, Any]:
    """The check-bound document (schema ``reports/schema/check-bound-v1.schema.json``).

    ``executor``: where batches of reference evaluations run (:mod:`.remote`; on ``None``,
    serial and local executors: here, one after another). Bad input raises
    ``InvalidParameter`` naming the parameter or token.
    """
    started = time.monotonic()
    note = progress or (lambda _m: None)
    if options.profile not in BUDGETS:
        raise InvalidParameter(f"profile must be quick or thorough; got {options.profile!r}")
    budget = BUDGETS[options.profile] if options.budget is None else options.budget
    if not budget > 0 or not math.isfinite(budget):
        raise InvalidParameter(f"--budget must be a number of seconds > 0; got {budget}")
    ref = make_reference(against, options.kind)
    maps = _mapping(ref, maps or {})
    ref_to_bound = {r: b for b, r in maps.items()}
    bound_to_ref = dict(maps)
    names = tuple(ref_to_bound.get(n, n) for n in ref.names if not ref.spec(n).is_list)
    tgt = make_target(target, names, options.eval_timeout)
    ranges = {bound_to_ref.get(k, k): v for k, v in region.items()}
    fixed_ref = {bound_to_ref.get(k, k): v for k, v in (fixed or {}).items()}
    reg = build_region(ref, ranges, fixed_ref)
    if isinstance(tgt, FormulaTarget):
        missing = [n for n in tgt.names if bound_to_ref.get(n, n) not in ref.names]
        if missing:
            raise InvalidParameter(f"the formula uses {missing[0]!r}, not a parameter of "
                                   f"{ref.name}")
    mentioned = set(ranges) | set(fixed_ref)
    checker = Checker(ref, tgt, _translator(tgt, ref_to_bound, mentioned), options.lower,
                      remote=None if executor is None else Remote(against, options.kind,
                                                                  executor))
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
    speed = "slow" if ref.resolution_bits or ref.slow else "fast"
    plan, per_dim = PLANS[(options.profile, speed)]
    deadline = started + budget
    note(f"checking {tgt.text} against {ref.name} ({options.kind}, "
         f"{'lower' if options.lower else 'upper'} bound), budget {budget:g} s, seed {seed}")
    try:
        log = search(checker, reg, plan, seed, started + SEARCH_SHARE * budget, note)
        violations = checker.violations()
        proof: ProofLog | None = None
        if not violations and log.complete and isinstance(tgt, FormulaTarget) and \
                ref.box_capable and reg.dims:
            note("proof: branch and bound over the whole region")
            proof = prove(tgt, ref, reg, options.lower, checker.to_target,
                          lambda pt: checker.check(pt).status == "violated",
                          started + PROOF_SHARE * budget, MAX_BOXES, note)
            note(f"proof: {proof.status} ({proof.boxes} boxes, {proof.seconds:.1f} s)")
            violations = checker.violations()
        elif not violations and log.complete:
            proof = ProofLog(status="not_applicable", reason=(
                "the target is not a formula string" if not isinstance(tgt, FormulaTarget) else
                "the reference is not enclosed over boxes (not monotone in every parameter, "
                "or pointwise only)" if not ref.box_capable else "the region is a single point"))
        verdict, message = _verdict(checker, log, proof)
        note(f"{verdict}: {message}")
        # tightness, known bounds and plots on what is left of the budget
        grid = tight.grid_points(reg, per_dim) if reg.dims else [reg.point({})]
        checker.prefetch(grid, deadline)
        for pt in grid:
            if time.monotonic() > deadline:
                break
            checker.check(pt)
        if reg.dims and time.monotonic() < deadline:
            from dpverify.verifiers.bounds.search import refine_by

            refine_by(checker, reg, plan, seed + 1, deadline,
                      lambda r: (r.ratio if options.lower else -r.ratio)
                      if r.ratio is not None else math.inf)
        results = list(checker.results.values())
        summary = tight.ratio_summary(results, options.lower)
        summary["complete"] = time.monotonic() <= deadline
        note(f"tightness: ratio min {summary['min']}, median {summary['median']}, "
             f"max {summary['max']} over {summary['points']} points")
        known = tight.known_bounds(ref, checker, grid, deadline)
        plots: dict[str, Any] = {}
        if options.plots and reg.dims:
            focus = tight.focus_point(results, summary, reg, violations[0] if violations else None)
            plots["focus"] = {k: show_value(v) for k, v in focus.items()}
            plots["curves"] = tight.curves(ref, checker, reg, focus, deadline)
            plots["heatmap"] = tight.heatmap(checker, reg, focus, deadline)
        # the verdict again over every point evaluated (a grid point may be a counterexample too)
        violations = checker.violations()
        verdict, message = _verdict(checker, log, proof)
        results = list(checker.results.values())
        counts = Counter(r.status for r in results)
        doc: dict[str, Any] = {
            "schema": SCHEMA,
            "verdict": verdict,
            "exit_code": EXIT_CODES[verdict],
            "message": message,
            "target": {"text": tgt.text, "kind": tgt.kind},
            "against": {"name": ref.name, "description": ref.description,
                        "parameters": list(ref.names),
                        "resolution": ("rising arb precision " + "/".join(
                            str(p) for p in (128, 384, 1024)) + " bits") if not ref.resolution_bits
                        else f"relative width {2.0 ** -ref.resolution_bits:.3g} (certified PLD)"},
            "kind": options.kind,
            "lower": options.lower,
            "region": reg.describe(),
            "map": dict(maps),
            "counterexample": _counterexample(violations[0], tgt, ref, options, maps)
            if violations else None,
            "points": {"evaluated": len(results), **{k: counts[k] for k in (
                "sound", "violated", "unresolved", "target_problem", "reference_error")}},
            "target_problems": {
                "count": counts["target_problem"],
                "by_kind": dict(Counter(r.target.problem for r in results
                                        if r.status == "target_problem")),
                "examples": _examples([r for r in results if r.status == "target_problem"])},
            "unresolved": {"count": counts["unresolved"],
                           "examples": _examples([r for r in results if r.status == "unresolved"])},
            "tightness": summary,
            "known_bounds": known,
            "search": {"examples": log.examples, "corners": log.corners, "spread": log.spread,
                       "refined": log.refined,
                       "seconds": round(log.seconds, 3), "seed": seed, "profile": options.profile,
                       "complete": log.complete, "stop_reason": log.stop_reason,
                       "phases": log.phases},
            "proof": proof.to_dict() if proof is not None else None,
            "plots": plots,
            "budget": budget,
            "seconds": round(time.monotonic() - started, 3),
            "command": command or "",
        }
        return jsonable(doc)
    except Exception as e:  # an internal error is a verdict (exit 3), never a silent pass
        note(f"error: {type(e).__name__}: {e}")
        return jsonable(_error_document(e, tgt, ref, reg, options, maps, seed, budget,
                                        time.monotonic() - started, command))


def _error_document(e: Exception, tgt: Target, ref: Reference, reg: Any, options: Options,
                    maps: Mapping[str, str], seed: int, budget: float, seconds: float,
                    command: str | None) -> dict[str, Any]:
    none = {"count": 0, "examples": []}
    return {
        "schema": SCHEMA, "verdict": "error", "exit_code": EXIT_CODES["error"],
        "message": f"internal error: {type(e).__name__}: {e}",
        "target": {"text": tgt.text, "kind": tgt.kind},
        "against": {"name": ref.name, "description": ref.description,
                    "parameters": list(ref.names), "resolution": ""},
        "kind": options.kind, "lower": options.lower, "region": reg.describe(),
        "map": dict(maps), "counterexample": None,
        "points": {k: 0 for k in ("evaluated", "sound", "violated", "unresolved",
                                  "target_problem", "reference_error")},
        "target_problems": {**none, "by_kind": {}}, "unresolved": none,
        "tightness": {"points": 0, "min": None, "median": None, "max": None, "worst": None},
        "known_bounds": [],
        "search": {"examples": 0, "corners": 0, "spread": 0, "refined": 0, "seconds": 0.0,
                   "seed": seed, "profile": options.profile, "complete": False,
                   "stop_reason": "internal error", "phases": []},
        "proof": None, "plots": {}, "budget": budget, "seconds": round(seconds, 3),
        "command": command or "",
    }


def jsonable(x: Any) -> Any:
    """The document with non-finite floats as the strings "inf", "-inf", "nan" (strict JSON)."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, Fraction):
        return jsonable(float(x))
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [jsonable(v) for v in x]
    return x


__all__ = ["BUDGETS", "EXIT_CODES", "SCHEMA", "VERDICTS", "Options", "check_bound", "jsonable"]
