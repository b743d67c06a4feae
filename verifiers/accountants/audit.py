"""The accountant audit: claimed values against certified references, one verdict per query.

For every (accountant, scenario, query) the accountant's claim is compared with the certified
enclosure ``[lo, hi]`` of the true value (:mod:`verifiers.accountants.reference`):

- ``UNSOUND``: the claim is below ``lo`` (by more than the float tolerance ``rtol*lo + atol``):
  the accountant under-reports the privacy loss — a certified privacy bug. The record carries
  the margin and a command that reproduces it.
- ``LOOSE``: the claim is above ``loose_factor * hi`` (+ ``atol``): sound but wasteful.
- ``SOUND``: otherwise. ``certified`` says whether the claim is at or above ``hi`` (then it is
  proved at least the true value); a claim inside ``[lo, hi)`` is consistent with the truth
  within the enclosure, and a claim within the float tolerance below ``lo`` is rounding.
- ``ERROR``: the call raised, returned a non-number, NaN, a negative value, an infinite value
  where a finite one is due (or a delta above 1), or outlived the per-call timeout; each call
  runs in a forked worker that is killed at the timeout, so a crash or a hang never stops the
  audit.
- ``UNSUPPORTED``: the accountant raised ``NotImplementedError`` (its message is the reason).
- ``INCONCLUSIVE``: no certified reference could be computed (the reason is given); never a pass.

Exit status of an audit: 1 when any record is UNSOUND or ERROR, else 0. With a baseline
(:func:`compare`), 1 when a verdict weakens or a claimed value moves beyond the tolerance.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import DpVerifyError, InvalidParameter
from dpverify.verifiers.accountants.reference import (
    DEFAULT_REL_WIDTH,
    DEFAULT_SECONDS,
    Bound,
    reference_for,
    unsupported_reason,
)
from dpverify.verifiers.accountants.scenario import ScenarioCase, fmt_number, query_name

VERDICTS = ("SOUND", "LOOSE", "UNSUPPORTED", "INCONCLUSIVE", "ERROR", "UNSOUND")
# strength for --baseline: a verdict weakens when its rank falls
RANK = {"SOUND": 5, "LOOSE": 4, "UNSUPPORTED": 3, "ERROR": 1, "UNSOUND": 0}
FAILING = ("UNSOUND", "ERROR")

DEFAULT_TIMEOUT = 60.0
DEFAULT_LOOSE_FACTOR = 1.5
DEFAULT_RTOL = 1e-6
ATOL = {"epsilon": 1e-9, "delta": 1e-15}


@dataclass(frozen=True)
class AuditOptions:
    """How an audit judges and runs.

    ``rtol``/``atol``: a shortfall below the certified lower bound smaller than
    ``rtol*lo + atol`` (``atol`` 1e-9 for epsilon, 1e-15 for delta) is float rounding, not a
    bug. ``rel_width``/``ref_seconds``: the target relative width and time budget of a PLD-engine
    reference (closed forms are exact to ~1e-30 regardless).
    """

    timeout: float = DEFAULT_TIMEOUT
    loose_factor: float = DEFAULT_LOOSE_FACTOR
    rtol: float = DEFAULT_RTOL
    rel_width: float = DEFAULT_REL_WIDTH
    ref_seconds: float = DEFAULT_SECONDS
    scenarios_label: str = "FILE"
    in_process: bool = False  # run calls in this process (no timeout): debugging only

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise InvalidParameter(f"--timeout must be > 0 seconds; got {self.timeout}")
        if not self.loose_factor >= 1:
            raise InvalidParameter(f"--loose-factor must be >= 1; got {self.loose_factor}")
        if not 0 <= self.rtol < 1:
            raise InvalidParameter(f"rtol must be in [0, 1); got {self.rtol}")


@dataclass
class Named:
    """An accountant with the spec it was given by (a built-in name or module:object)."""

    spec: str
    accountant: Any
    name: str = ""
    prepare_error: tuple[str, str] | None = None  # (verdict, reason) for every record

    def __post_init__(self) -> None:
        if not self.name:
            self.name = str(getattr(self.accountant, "name", "") or self.spec)


# ------------------------------------------------------------------------------------------
# calls in forked workers


def _child(conn: Any, acc: Any, method: str, scenario: Any, value: float) -> None:
    try:  # the accountant's own output must not reach the audit's stdout (JSON) or stderr
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        sys.stdout = sys.stderr = open(os.devnull, "w")
    except OSError:
        pass
    try:
        out = getattr(acc, method)(scenario, value)
        msg: tuple[str, Any] = _pack(out)
    except NotImplementedError as e:
        msg = ("unsupported", str(e) or "NotImplementedError")
    except BaseException as e:  # everything else is the accountant's error
        msg = ("error", f"{type(e).__name__}: {e}")
    try:
        conn.send(msg)
    finally:
        conn.close()
        os._exit(0)


def _pack(out: Any) -> tuple[str, Any]:
    if isinstance(out, bool):
        return ("bad", f"returned a bool ({out!r}), not a number")
    if isinstance(out, int | float):
        return ("ok", float(out))
    try:
        import numbers

        if isinstance(out, numbers.Real):
            return ("ok", float(out))
    except Exception:
        pass
    text = repr(out)
    if len(text) > 120:
        text = text[:117] + "..."
    return ("bad", f"returned {type(out).__name__} {text}, not a number")


def call(acc: Any, method: str, scenario: Any, value: float, timeout: float,
         in_process: bool = False) -> tuple[str, Any, float]:
    """Run ``acc.method(scenario, value)`` in a forked worker: ``(status, payload, seconds)``
    with status ``ok`` (payload: float), ``unsupported``, ``error``, ``bad`` or ``timeout``."""
    t0 = time.monotonic()
    if in_process:
        try:
            status, payload = _pack(getattr(acc, method)(scenario, value))
        except NotImplementedError as e:
            status, payload = "unsupported", str(e) or "NotImplementedError"
        except Exception as e:
            status, payload = "error", f"{type(e).__name__}: {e}"
        return status, payload, time.monotonic() - t0
    ctx = multiprocessing.get_context("fork")
    reader, writer = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(writer, acc, method, scenario, value))
    proc.start()
    writer.close()
    result: tuple[str, Any] | None = None
    timed_out = False
    try:
        if reader.poll(timeout):
            try:
                result = reader.recv()
            except (EOFError, OSError):
                result = None
        else:
            timed_out = True
    finally:
        reader.close()
        if proc.is_alive():
            proc.join(0.5 if not timed_out else 0)
        if proc.is_alive():
            proc.kill()
        proc.join()
    seconds = time.monotonic() - t0
    if timed_out:
        return "timeout", f"no answer within the {fmt_number(timeout)} s timeout (worker killed)", \
            seconds
    if result is None:
        return "error", f"the worker died without an answer (exit code {proc.exitcode})", seconds
    return result[0], result[1], seconds


# ------------------------------------------------------------------------------------------
# judging one claim


def _json_number(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def judge(kind: str, claimed: float, ref: Bound, loose_factor: float, rtol: float
          ) -> tuple[str, str, dict[str, Any]]:
    """``(verdict, detail, extra)`` of a numeric claim against a certified enclosure."""
    lo, hi = ref.lo, ref.hi
    what = "epsilon" if kind == "epsilon" else "delta"
    if math.isnan(claimed):
        return "ERROR", f"the claimed {what} is NaN", {}
    if claimed < 0:
        return "ERROR", f"the claimed {what} is negative ({claimed!r})", {}
    if math.isinf(claimed):
        if kind == "epsilon" and hi == math.inf:
            return "SOUND", "eps = inf is the true value (delta below the delta0 mass)", \
                {"certified": True}
        return "ERROR", f"the claimed {what} is inf where a finite value is due " \
                        f"(true value <= {float(hi):.6g})", {}
    if kind == "delta" and claimed > 1 + 1e-12:
        return "ERROR", f"the claimed delta {claimed!r} is above 1", {}
    c = Fraction(claimed)
    atol = Fraction(ATOL[kind])
    if lo == math.inf:
        return "UNSOUND", f"the true {what} is inf (no finite epsilon reaches this delta); " \
                          f"claimed {claimed!r}", \
            {"margin": {"absolute": "inf", "relative": "inf"}}
    lo_f = Fraction(lo)
    if c < lo_f:
        short = lo_f - c
        if short <= Fraction(rtol) * lo_f + atol:
            return "SOUND", f"{float(short):.3g} below the certified lower bound: within the " \
                            f"float tolerance (rtol {rtol:g}, atol {float(atol):g})", \
                {"certified": False}
        rel = float(short / lo_f) if lo_f else math.inf
        return "UNSOUND", (f"claimed {what} {claimed:.10g} is below the certified lower bound "
                           f"{float(lo_f):.10g} of the true {what} (short by {float(short):.4g}, "
                           f"{100 * rel:.3g}%)"), \
            {"margin": {"absolute": float(short), "relative": _json_number(rel)}}
    if hi != math.inf:
        hi_f = Fraction(hi)
        if c > Fraction(loose_factor) * hi_f + atol:
            ratio = float(c / hi_f) if hi_f else math.inf
            return "LOOSE", (f"claimed {what} {claimed:.6g} is above {loose_factor:g} x the "
                             f"certified upper bound {float(hi_f):.6g}"
                             + (f" (ratio {ratio:.3g})" if math.isfinite(ratio) else "")), \
                {"ratio": _json_number(ratio), "certified": True}
        if c >= hi_f:
            return "SOUND", "at or above the certified upper bound", {"certified": True}
        return "SOUND", "inside the certified enclosure (consistent with the true value)", \
            {"certified": False}
    return "SOUND", "the true value may be infinite; the claim is above the lower bound", \
        {"certified": False}


# ------------------------------------------------------------------------------------------
# the audit


def reproduce_command(spec: str, label: str, case_id: str) -> str:
    return (f"dpverify audit --accountant {spec} --scenarios {label} --id {case_id} "
            "--format json")


@dataclass
class Audit:
    """An audit run: accountants x scenario cases x queries -> records."""

    accountants: Sequence[Named]
    cases: Sequence[ScenarioCase]
    options: AuditOptions = field(default_factory=AuditOptions)
    on_record: Callable[[dict[str, Any]], None] | None = None

    def run(self) -> list[dict[str, Any]]:
        for case in self.cases:
            reason = unsupported_reason(case.scenario)
            if reason:
                raise InvalidParameter(f"scenario {case.id}: {reason}")
        records: list[dict[str, Any]] = []
        for named in self.accountants:
            self._prepare(named)
            for case in self.cases:
                for kind, values in (("epsilon", case.deltas), ("delta", case.epsilons)):
                    for v in values:
                        rec = self._query(named, case, kind, v)
                        records.append(rec)
                        if self.on_record:
                            self.on_record(rec)
        return records

    def _prepare(self, named: Named) -> None:
        prepare = getattr(named.accountant, "prepare", None)
        if named.prepare_error is not None or not callable(prepare):
            return
        try:
            prepare()
        except NotImplementedError as e:
            named.prepare_error = ("UNSUPPORTED", str(e))
        except Exception as e:
            named.prepare_error = ("ERROR", f"prepare() failed: {type(e).__name__}: {e}")

    def _reference(self, case: ScenarioCase, kind: str, value: float) -> Bound:
        ref = reference_for(case.scenario, rel_width=self.options.rel_width,
                            max_seconds=self.options.ref_seconds)
        return ref.epsilon(value) if kind == "epsilon" else ref.delta(value)

    def _query(self, named: Named, case: ScenarioCase, kind: str, value: float
               ) -> dict[str, Any]:
        opts = self.options
        rec: dict[str, Any] = {
            "accountant": named.name, "scenario": case.id, "query": query_name(kind, value),
            "verdict": "", "claimed": None, "reference": None, "seconds": 0.0,
        }
        if named.prepare_error is not None:
            rec["verdict"], rec["detail"] = named.prepare_error
            return rec
        status, payload, seconds = call(named.accountant, kind, case.scenario, value,
                                        opts.timeout, opts.in_process)
        rec["seconds"] = round(seconds, 4)
        if status == "unsupported":
            rec["verdict"], rec["detail"] = "UNSUPPORTED", str(payload)
            return rec
        if status in ("error", "bad", "timeout"):
            rec["verdict"], rec["detail"] = "ERROR", str(payload)
            rec["reproduce"] = reproduce_command(named.spec, opts.scenarios_label, case.id)
            return rec
        claimed = float(payload)
        rec["claimed"] = _json_number(claimed)
        try:
            ref = self._reference(case, kind, value)
        except (DpVerifyError, ArithmeticError, ValueError) as e:
            rec["verdict"] = "INCONCLUSIVE"
            rec["detail"] = f"no certified reference: {type(e).__name__}: {e}"
            return rec
        lo, hi = ref.floats()
        rec["reference"] = [_json_number(lo), _json_number(hi)]
        rec["reference_method"] = ref.method
        verdict, detail, extra = judge(kind, claimed, ref, opts.loose_factor, opts.rtol)
        rec["verdict"], rec["detail"] = verdict, detail
        rec.update(extra)
        if verdict in FAILING:
            rec["reproduce"] = reproduce_command(named.spec, opts.scenarios_label, case.id)
        return rec


def audit(accountants: Iterable[Named | Any], cases: Sequence[ScenarioCase],
          options: AuditOptions | None = None,
          on_record: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Audit accountants (``Named`` or bare accountant objects) on scenario cases."""
    named = [a if isinstance(a, Named) else Named(str(getattr(a, "name", "accountant")), a)
             for a in accountants]
    return Audit(named, cases, options or AuditOptions(), on_record).run()


def exit_code(records: Sequence[dict[str, Any]]) -> int:
    return 1 if any(r["verdict"] in FAILING for r in records) else 0


def summary(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Counts of verdicts per accountant."""
    out: dict[str, dict[str, int]] = {}
    for r in records:
        row = out.setdefault(r["accountant"], {v: 0 for v in VERDICTS})
        row[r["verdict"]] = row.get(r["verdict"], 0) + 1
    return out


# ------------------------------------------------------------------------------------------
# baseline comparison


def _key(r: dict[str, Any]) -> tuple[str, str, str]:
    return (str(r["accountant"]), str(r["scenario"]), str(r["query"]))


def _as_float(x: Any) -> float | None:
    if x is None:
        return None
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return None
    return float(x)


def compare(old: Sequence[dict[str, Any]], new: Sequence[dict[str, Any]],
            tolerance: float = 1e-6) -> dict[str, Any]:
    """Regressions of ``new`` against a baseline ``old``.

    A regression is a verdict that weakens (SOUND > LOOSE > UNSUPPORTED > ERROR > UNSOUND;
    INCONCLUSIVE on either side is not compared) or a claimed value that moves by more than
    ``tolerance`` relative to the old one (either direction). Records in only one of the runs
    are listed, not counted as regressions.
    """
    old_map = {_key(r): r for r in old}
    new_map = {_key(r): r for r in new}
    regressions: list[dict[str, Any]] = []
    for key, r in new_map.items():
        o = old_map.get(key)
        if o is None:
            continue
        ov, nv = o.get("verdict"), r.get("verdict")
        if ov in RANK and nv in RANK and RANK[nv] < RANK[ov]:
            regressions.append({"accountant": key[0], "scenario": key[1], "query": key[2],
                                "kind": "verdict", "old": ov, "new": nv,
                                "detail": f"verdict weakened: {ov} -> {nv}"})
            continue
        a, b = _as_float(o.get("claimed")), _as_float(r.get("claimed"))
        if a is None or b is None:
            continue
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
            moved = not (a == b or (math.isnan(a) and math.isnan(b)))
            rel = math.inf
        else:
            rel = abs(b - a) / abs(a) if a else (math.inf if b else 0.0)
            moved = rel > tolerance
        if moved:
            regressions.append({"accountant": key[0], "scenario": key[1], "query": key[2],
                                "kind": "value", "old": o.get("claimed"),
                                "new": r.get("claimed"),
                                "detail": f"claimed value moved {fmt_number(a)} -> "
                                          f"{fmt_number(b)} (relative {rel:.3g} > "
                                          f"{tolerance:g})"})
    return {
        "regressions": regressions,
        "only_in_baseline": sorted("/".join(k) for k in old_map.keys() - new_map.keys()),
        "only_in_new": sorted("/".join(k) for k in new_map.keys() - old_map.keys()),
        "compared": len(old_map.keys() & new_map.keys()),
        "tolerance": tolerance,
    }


def load_records(data: Any, source: str = "baseline") -> list[dict[str, Any]]:
    """Records from a decoded audit JSON (a list of records, or ``{"records": [...]}``)."""
    if isinstance(data, dict) and isinstance(data.get("records"), list):
        data = data["records"]
    if not isinstance(data, list):
        raise InvalidParameter(f"{source} must be the JSON of a dpverify audit (a list of "
                               "records)")
    for i, r in enumerate(data, 1):
        if not isinstance(r, dict) or not {"accountant", "scenario", "query",
                                           "verdict"} <= r.keys():
            raise InvalidParameter(f"{source}: record {i} is not an audit record (needs "
                                   "accountant, scenario, query, verdict)")
    return data


__all__ = [
    "FAILING",
    "VERDICTS",
    "Audit",
    "AuditOptions",
    "Named",
    "audit",
    "call",
    "compare",
    "exit_code",
    "judge",
    "load_records",
    "reproduce_command",
    "summary",
]
