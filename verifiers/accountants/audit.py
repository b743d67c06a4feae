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
  (``prepare()`` included) runs in a worker process group that is killed at the timeout
  (:mod:`verifiers.accountants.calls`), so a crash, an exit or a hang never stops the audit.
  A failure of dpverify itself while judging one query is that query's ``ERROR`` with
  ``"internal": true`` (exit 3 at the end); the audit goes on.
- ``UNSUPPORTED``: the accountant raised ``NotImplementedError`` (its message is the reason),
  or has no ``tpr``/``gdp_mu`` method for a trade-off query.

Queries: ``epsilon@delta``, ``delta@epsilon``, ``tpr@fpr`` and ``gdp_mu``
(:mod:`verifiers.accountants.tradeoff_reference` states the true values of the last two). Every
claim is an upper bound on a privacy quantity, so the same verdicts apply to all four.
- ``INCONCLUSIVE``: no certified reference could be computed (the reason is given); never a pass.

Exit status of an audit (:func:`exit_code`): 3 when judging a query failed internally, 1 when
any record is UNSOUND or ERROR, else 0. With a baseline (:func:`compare`), 1 when a verdict
weakens or a claimed value moves beyond the tolerance. :func:`checked` counts the queries
judged against a certified reference (the CLI's ``--min-checked`` gate).

Accountants are identified by their *spec* (the built-in name or ``module:object`` they were
given by): two accountants with the same ``name`` are two rows, labelled ``name (spec)``.

"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dpverify.theorems.core import DpVerifyError, InvalidParameter
from dpverify.verifiers.accountants.baseline import RANK, compare, load_records
from dpverify.verifiers.accountants.calls import call, deadline, pack
from dpverify.verifiers.accountants.judge import json_number, judge
from dpverify.verifiers.accountants.reference import (
    DEFAULT_REL_WIDTH,
    DEFAULT_SECONDS,
    Bound,
    reference_for,
    unsupported_reason,
)
from dpverify.verifiers.accountants.scenario import ScenarioCase, query_name
from dpverify.verifiers.accountants.tradeoff_reference import query_bound

VERDICTS = ("SOUND", "LOOSE", "UNSUPPORTED", "INCONCLUSIVE", "ERROR", "UNSOUND")
FAILING = ("UNSOUND", "ERROR")
JUDGED = ("SOUND", "LOOSE", "UNSOUND")  # verdicts against a certified reference

# optional accountant methods (the protocol's epsilon and delta are required)
OPTIONAL_QUERIES = {"tpr": "tpr(scenario, fpr)", "gdp_mu": "gdp_mu(scenario)"}
DEFAULT_TIMEOUT = 60.0
MAX_TIMEOUT = 86400.0 * 7
DEFAULT_LOOSE_FACTOR = 1.5
DEFAULT_RTOL = 1e-6


def _finite(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


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
        if not (_finite(self.timeout) and 0 < self.timeout <= MAX_TIMEOUT):
            raise InvalidParameter(f"--timeout must be > 0 seconds, finite, at most "
                                   f"{MAX_TIMEOUT:g}; got {self.timeout}")
        if not (_finite(self.loose_factor) and self.loose_factor >= 1):
            raise InvalidParameter(f"--loose-factor must be >= 1 and finite; got "
                                   f"{self.loose_factor}")
        if not (_finite(self.rtol) and 0 <= self.rtol < 1):
            raise InvalidParameter(f"rtol must be in [0, 1); got {self.rtol}")
        if not (_finite(self.rel_width) and 0 < self.rel_width < 1):
            raise InvalidParameter(f"rel_width must be in (0, 1); got {self.rel_width}")
        if not (_finite(self.ref_seconds) and self.ref_seconds > 0):
            raise InvalidParameter(f"ref_seconds must be > 0; got {self.ref_seconds}")


@dataclass
class Named:
    """An accountant with the spec it was given by (a built-in name or module:object).

    ``label`` is how its records name it: its ``name``, or ``name (spec)`` when another
    accountant of the same audit has the same name (set by :class:`Audit`).
    """

    spec: str
    accountant: Any
    name: str = ""
    prepare_error: tuple[str, str] | None = None  # (verdict, reason) for every record
    label: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            self.name = str(getattr(self.accountant, "name", "") or self.spec)
        self.label = self.label or self.name


def label_accountants(accountants: Sequence[Named]) -> None:
    """Give every accountant a distinct label (``name (spec)`` when names collide)."""
    seen: dict[str, int] = {}
    for a in accountants:
        seen[a.name] = seen.get(a.name, 0) + 1
    for a in accountants:
        a.label = a.name if seen[a.name] == 1 or a.name == a.spec else f"{a.name} ({a.spec})"
    labels = [a.label for a in accountants]
    for i, a in enumerate(accountants):  # same name and spec twice: number them
        if labels.count(a.label) > 1:
            a.label = f"{a.label} #{labels[:i + 1].count(a.label)}"


# ------------------------------------------------------------------------------------------
# the audit


def reproduce_command(spec: str, label: str, case_id: str) -> str:
    return (f"dpverify audit --accountant {spec} --scenarios {label} --id {case_id} "
            "--format json")


@dataclass
class Audit:
    """An audit run: accountants x scenario cases x queries -> records.

    ``reference(case, kind, value) -> Bound`` gives the certified enclosure of one query
    (default: :func:`reference_for`, in memory); ``on_record`` sees every record as soon as it
    is judged (the CLI streams them to disk).
    """

    accountants: Sequence[Named]
    cases: Sequence[ScenarioCase]
    options: AuditOptions = field(default_factory=AuditOptions)
    on_record: Callable[[dict[str, Any]], None] | None = None
    reference: Callable[[ScenarioCase, str, float], Bound] | None = None

    def queries(self) -> int:
        return len(self.accountants) * sum(len(c.queries()) for c in self.cases)

    def run(self) -> list[dict[str, Any]]:
        for case in self.cases:
            reason = unsupported_reason(case.scenario)
            if reason:
                raise InvalidParameter(f"scenario {case.id}: {reason}")
        label_accountants(self.accountants)
        records: list[dict[str, Any]] = []
        for named in self.accountants:
            self._prepare(named)
            for case in self.cases:
                for kind, v in case.queries():
                    rec = self._query_safely(named, case, kind, v)
                    records.append(rec)
                    if self.on_record:
                        self.on_record(rec)
        return records

    def _prepare(self, named: Named) -> None:
        """``prepare()`` first in a worker under the timeout (an exit, a hang or an exception
        there is this accountant's ERROR for all its queries), then — it having returned
        there — once here, so that what it loads is inherited by the call workers."""
        prepare = getattr(named.accountant, "prepare", None)
        if named.prepare_error is not None or not callable(prepare):
            return
        opts = self.options
        status, payload, _ = call(named.accountant, "prepare", timeout=opts.timeout,
                                  in_process=opts.in_process)
        if status == "unsupported":
            named.prepare_error = ("UNSUPPORTED", str(payload))
        elif status != "done":
            named.prepare_error = ("ERROR", f"prepare() failed: {payload}")
        elif not opts.in_process:
            failure = _prepare_here(prepare, opts.timeout)
            if failure:
                named.prepare_error = ("ERROR", f"prepare() failed in the audit process: "
                                                f"{failure}")

    def _reference(self, case: ScenarioCase, kind: str, value: float) -> Bound:
        if self.reference is not None:
            return self.reference(case, kind, value)
        ref = reference_for(case.scenario, rel_width=self.options.rel_width,
                            max_seconds=self.options.ref_seconds)
        return query_bound(ref, kind, value)

    def _query_safely(self, named: Named, case: ScenarioCase, kind: str, value: float
                      ) -> dict[str, Any]:
        try:
            return self._query(named, case, kind, value)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # dpverify's own failure: this query's ERROR, not the run's
            return {**self._record(named, case, kind, value), "verdict": "ERROR",
                    "internal": True,
                    "detail": f"internal error while judging: {type(e).__name__}: {e}"}

    def _record(self, named: Named, case: ScenarioCase, kind: str, value: float
                ) -> dict[str, Any]:
        return {"accountant": named.label, "spec": named.spec, "scenario": case.id,
                "query": query_name(kind, value), "verdict": "", "claimed": None,
                "reference": None, "seconds": 0.0}

    def _query(self, named: Named, case: ScenarioCase, kind: str, value: float
               ) -> dict[str, Any]:
        opts = self.options
        rec = self._record(named, case, kind, value)
        if named.prepare_error is not None:
            rec["verdict"], rec["detail"] = named.prepare_error
            return rec
        if kind in OPTIONAL_QUERIES and not callable(getattr(named.accountant, kind, None)):
            rec["verdict"] = "UNSUPPORTED"
            rec["detail"] = f"the accountant has no {OPTIONAL_QUERIES[kind]} method"
            return rec
        status, payload, seconds = call(named.accountant, kind, case.scenario, value,
                                        opts.timeout, opts.in_process)
        rec["seconds"] = round(seconds, 4)
        if status == "unsupported":
            rec["verdict"], rec["detail"] = "UNSUPPORTED", str(payload)
            return rec
        if status != "ok":
            rec["verdict"], rec["detail"] = "ERROR", str(payload)
            rec["reproduce"] = reproduce_command(named.spec, opts.scenarios_label, case.id)
            return rec
        status, claimed = pack(payload)  # re-checked: a worker may have sent anything
        if status != "ok":
            rec["verdict"], rec["detail"] = "ERROR", str(claimed)
            return rec
        rec["claimed"] = json_number(claimed)
        try:
            ref = self._reference(case, kind, value)
        except (DpVerifyError, ArithmeticError, ValueError, MemoryError, RecursionError) as e:
            rec["verdict"] = "INCONCLUSIVE"
            rec["detail"] = f"no certified reference: {type(e).__name__}: {e}"
            return rec
        lo, hi = ref.floats()
        rec["reference"] = [json_number(lo), json_number(hi)]
        rec["reference_method"] = ref.method
        verdict, detail, extra = judge(kind, claimed, ref, opts.loose_factor, opts.rtol)
        rec["verdict"], rec["detail"] = verdict, detail
        rec.update(extra)
        if verdict in FAILING:
            rec["reproduce"] = reproduce_command(named.spec, opts.scenarios_label, case.id)
        return rec


def _prepare_here(prepare: Callable[[], Any], timeout: float) -> str | None:
    """Call ``prepare()`` in this process, guarded: an exception, ``sys.exit`` or outliving
    the timeout (in the main thread) is returned as the failure's text."""
    try:
        with deadline(timeout, "prepare()"):
            prepare()
        return None
    except KeyboardInterrupt:
        raise
    except SystemExit as e:
        return f"called sys.exit({e.code!r})"
    except BaseException as e:
        return f"{type(e).__name__}: {e}"


def audit(accountants: Iterable[Named | Any], cases: Sequence[ScenarioCase],
          options: AuditOptions | None = None,
          on_record: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Audit accountants (``Named`` or bare accountant objects) on scenario cases."""
    named = [a if isinstance(a, Named) else Named(str(getattr(a, "name", "accountant")), a)
             for a in accountants]
    return Audit(named, cases, options or AuditOptions(), on_record).run()


def checked(records: Sequence[dict[str, Any]]) -> int:
    """How many queries were judged against a certified reference."""
    return sum(1 for r in records if r.get("verdict") in JUDGED and r.get("reference"))


def exit_code(records: Sequence[dict[str, Any]]) -> int:
    """3 when judging a query failed internally, 1 on UNSOUND or ERROR, else 0."""
    if any(r.get("internal") for r in records):
        return 3
    return 1 if any(r["verdict"] in FAILING for r in records) else 0


def summary(records: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Counts of verdicts per accountant."""
    out: dict[str, dict[str, int]] = {}
    for r in records:
        row = out.setdefault(r["accountant"], {v: 0 for v in VERDICTS})
        row[r["verdict"]] = row.get(r["verdict"], 0) + 1
    return out


__all__ = [
    "FAILING",
    "RANK",
    "VERDICTS",
    "Audit",
    "AuditOptions",
    "Named",
    "audit",
    "call",
    "checked",
    "compare",
    "exit_code",
    "judge",
    "load_records",
    "reproduce_command",
    "summary",
]
