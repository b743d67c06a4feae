"""dpverify: a formally checked verification suite for the composition and amplification
theorems of differential privacy.

The public surface is this module; everything under ``dpverify.theorems``,
``dpverify.verifiers`` and ``dpverify.reports`` is private by convention and may change.

>>> import dpverify
>>> dpverify.get("KOV-EPS").title
'Optimal eps as a function of delta (exact inverse)'
>>> e = dpverify.evaluate("BW-ANALYTIC-GAUSS.eps", sigma=1, delta="1e-5")
>>> e.text
'4.37717809568122'
>>> lo, hi = e.enclosure  # exact Fractions: a rigorous enclosure of the true value
>>> float(hi - lo) < 1e-15
True

Parameters are exact: ints, ``Fraction``s and decimal strings are taken as written; a float is
taken as the decimal of its ``repr`` (``0.1`` means 1/10), never as its binary expansion.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import mpmath

    from dpverify.theorems.core import Theorem

__version__ = "0.1.0"

__all__ = [
    "BoundCheck",
    "Evaluation",
    "Run",
    "__version__",
    "audit",
    "check_bound",
    "evaluate",
    "get",
    "run",
    "theorems",
]


def get(theorem_id: str) -> Theorem:
    """The catalogue entry with this id or alias (``dpverify.errors.UnknownName`` otherwise)."""
    from dpverify.theorems import get as _get

    return _get(theorem_id)


def theorems(family: str | None = None) -> list[Theorem]:
    """Every catalogue entry in catalogue order, or those of one ``family``."""
    from dpverify.theorems import by_family

    return by_family(family)


@dataclass(frozen=True)
class Evaluation:
    """One formula value: ``value`` (mpmath, correct to ``digits`` significant digits),
    ``text`` (its decimal), and ``enclosure`` — a rigorous ``(lo, hi)`` pair of exact
    ``Fraction``s from ball arithmetic, or ``None`` when the formula has no arb route (then
    the value is mpmath at two precisions that agree to ``digits`` digits)."""

    theorem: str
    evaluator: str
    params: Mapping[str, Any]
    text: str
    value: mpmath.mpf
    enclosure: tuple[Fraction, Fraction] | None
    digits: int


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise TypeError("a parameter value cannot be a bool")
    if isinstance(value, (list, tuple)):
        return ",".join(_as_text(v) for v in value)
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    return repr(value) if isinstance(value, float) else str(value)


def evaluate(target: str, digits: int = 15, **params: Any) -> Any:
    """Evaluate ``"ID.EVALUATOR"`` (or ``"ID"``: its first evaluator) at ``params``.

    Same contract as ``dpverify eval``: parameters are validated against the evaluator's
    domain (``InvalidParameter`` names the parameter and the domain). A vector evaluator (one
    value per entry of a list parameter, e.g. ``MTZ-SGM-RDP.tau_orders``) returns a tuple of
    :class:`Evaluation`, one per entry, in order.
    """
    from dpverify.theorems import get as _get
    from dpverify.theorems.core import InvalidParameter, bind
    from dpverify.verifiers.evaluation import evaluate as _evaluate

    if not 1 <= digits <= 1000:
        raise InvalidParameter(f"digits must be in [1, 1000]; got {digits}")
    name, _, evaluator_name = target.partition(".")
    th = _get(name)
    if not th.encoded:
        raise InvalidParameter(f"{th.id} is not encoded yet: it has no evaluators to run")
    ev = th.evaluator(evaluator_name or None)
    given = {k: _as_text(v) for k, v in params.items()}
    bound = bind(ev.params, given, f"{th.id}.{ev.name}")
    if ev.vector is not None:
        from dpverify.verifiers.evaluation import evaluate_each

        list_name, scalar = ev.vector
        return tuple(_wrap(th.id, ev.name, {**bound, scalar: x}, r, digits)
                     for x, r in zip(bound[list_name],
                                     evaluate_each(ev, bound, digits), strict=True))
    return _wrap(th.id, ev.name, bound, _evaluate(ev, bound, digits), digits)


def _wrap(tid: str, evname: str, bound: Mapping[str, Any], result: Any,
          digits: int) -> Evaluation:
    import mpmath

    with mpmath.workdps(digits + 5):
        value = mpmath.mpf(result.value)
    enclosure = None
    if result.enclosure:
        enclosure = (Fraction(result.enclosure[0]), Fraction(result.enclosure[1]))
    return Evaluation(tid, evname, bound, result.value, value, enclosure, digits)


@dataclass(frozen=True)
class Run:
    """A run of the catalogue's claims: the run document (``document``, schema in
    ``dpverify/reports/schema/``) with the headline verdict of every claim."""

    document: Mapping[str, Any] = field(repr=False)

    @property
    def exit_code(self) -> int:
        """0 every claim as expected, 1 a claim came out unexpectedly, 3 a verifier crashed."""
        return int(self.document["exit_code"])

    @property
    def headlines(self) -> dict[tuple[str, int], str]:
        """``(theorem id, claim number) -> headline verdict``."""
        return {(t["id"], c["number"]): c["headline"]
                for t in self.document["theorems"] for c in t["claims"]}


def run(ids: Iterable[str] | None = None, profile: str = "quick", jobs: int = 0,
        seed: int | None = None, executor: Any = None) -> Run:
    """Check the claims of the catalogue (or of ``ids``) with the ``quick`` or ``thorough``
    profile; ``jobs=0`` uses one worker per core, ``jobs=1`` runs in-process.

    ``executor``: where the tasks run — ``None`` or ``"local"`` (worker processes),
    ``"serial"``, ``"dask"`` (a ``distributed.LocalCluster`` of ``jobs`` processes, started
    and shut down here), a ``distributed.Client`` (its cluster) or any
    ``concurrent.futures.Executor``. A client or executor passed in is used, not closed."""
    import time

    from dpverify.theorems import get as _get
    from dpverify.theorems.core import InvalidParameter
    from dpverify.verifiers.dispatch import PROFILES
    from dpverify.verifiers.executors import backend_for
    from dpverify.verifiers.runner import assemble, execute, plan

    if profile not in PROFILES:
        raise InvalidParameter(f"profile must be one of {', '.join(PROFILES)}; got {profile!r}")
    if jobs < 0:
        raise InvalidParameter(f"jobs must be >= 0 (0: one per core); got {jobs}")
    wanted = [_get(i).id for i in ids] if ids is not None else None
    tasks = plan(wanted)
    started = time.monotonic()
    with backend_for(executor, jobs) as backend:
        verdicts = execute(tasks, PROFILES[profile], seed=seed, executor=backend.executor)
    command = "dpverify.run(" + (repr(wanted) if wanted else "") + f", profile={profile!r})"
    return Run(assemble(tasks, verdicts, PROFILES[profile], command,
                        time.monotonic() - started, wanted, executor=backend.describe()))


def audit(accountants: Sequence[Any] | Any, scenarios: str | Sequence[Any] = "quick", *,
          timeout: float = 60.0, loose_factor: float = 1.5,
          executor: Any = None) -> list[dict[str, Any]]:
    """Audit privacy accountants (objects with ``name``, ``epsilon(scenario, delta)`` and
    ``delta(scenario, epsilon)``) against certified references; one record per
    (accountant, scenario, query) with its verdict (UNSOUND, LOOSE, SOUND, ERROR,
    UNSUPPORTED, INCONCLUSIVE). ``scenarios``: ``"quick"``, ``"thorough"`` or case dicts.
    ``executor``: ``None``/``"local"``/``"serial"`` (references computed here), ``"dask"``, a
    ``distributed.Client`` or a ``concurrent.futures.Executor``: the certified references
    that are not cached are computed on its workers (the accountant calls stay here)."""
    from dpverify.verifiers.executors import backend_for
    from dpverify.verifiers.pytest_plugin import audit_accountants

    many = accountants if isinstance(accountants, (list, tuple)) else [accountants]
    with backend_for(executor) as backend:
        return audit_accountants(many, scenarios, timeout=timeout, loose_factor=loose_factor,
                                 executor=backend.executor)


@dataclass(frozen=True)
class BoundCheck:
    """The result of :func:`check_bound`: the document (schema
    ``dpverify/reports/schema/check-bound-v1.schema.json``) with shortcuts."""

    document: Mapping[str, Any] = field(repr=False)

    @property
    def verdict(self) -> str:
        """``proved``, ``passed``, ``failed``, ``inconclusive`` or ``error``."""
        return str(self.document["verdict"])

    @property
    def sound(self) -> bool:
        """True when the bound was proved or passed the search (exit code 0)."""
        return self.verdict in ("proved", "passed")

    @property
    def exit_code(self) -> int:
        return int(self.document["exit_code"])

    @property
    def message(self) -> str:
        return str(self.document["message"])

    @property
    def counterexample(self) -> Mapping[str, Any] | None:
        return self.document.get("counterexample")

    @property
    def tightness(self) -> Mapping[str, Any]:
        return self.document["tightness"]

    def render(self, fmt: str = "text") -> str:
        """The report as ``text``, ``json``, ``md`` or ``html``."""
        from dpverify.reports.check_bound_report import FORMATS, render

        if fmt not in FORMATS:
            from dpverify.theorems.core import InvalidParameter

            raise InvalidParameter(f"fmt must be one of {', '.join(FORMATS)}; got {fmt!r}")
        return render(dict(self.document), fmt)

    def __str__(self) -> str:
        return self.render("text")


def check_bound(target: Any, *, against: str, kind: str = "eps",
                region: Mapping[str, Any], fixed: Mapping[str, Any] | None = None,
                map: Mapping[str, str] | None = None, lower: bool = False,
                profile: str = "quick", budget: float | None = None, seed: int | None = None,
                eval_timeout: float = 10.0, plots: bool = False,
                progress: Any = None, executor: Any = None) -> BoundCheck:
    """Validate a privacy bound against a certified reference: sound? how tight? where?

    ``target``: a callable (called with keyword arguments named as the reference's parameters,
    or as renamed by ``map`` = {bound name: reference name}), a formula string, or a catalogue
    evaluator ``"ID.NAME"``. ``against``: ``optimal-composition``, ``heterogeneous-composition``,
    ``gaussian``, ``subsampled-gaussian``, ``laplace``, ``randomized-response`` or ``"ID.NAME"``.
    ``region``: ``{name: (lo, hi)}`` or ``{name: "lo..hi"}``; ``fixed``: ``{name: value}``.
    ``kind="eps"``: the target is an upper bound on eps(delta) (``lower=True``: a lower bound);
    ``kind="delta"``: on delta(eps). Same engine and document as ``dpverify check-bound``.
    ``executor``: ``None``/``"local"``/``"serial"`` (everything here), ``"dask"``, a
    ``distributed.Client`` or a ``concurrent.futures.Executor``: the reference evaluations of
    the search's batches (corners and edges, quasi-random spread, grid) run on its workers.

    >>> r = check_bound("k*eps0", against="optimal-composition",
    ...                 region={"eps0": (0.1, 1), "k": (1, 10), "delta": (1e-3, 1e-2)},
    ...                 budget=20, seed=0)
    >>> r.sound, r.tightness["min"] >= 1
    (True, True)
    """
    from dpverify.verifiers.bounds.engine import Options
    from dpverify.verifiers.bounds.engine import check_bound as _check
    from dpverify.verifiers.executors import backend_for

    options = Options(kind=kind, lower=lower, profile=profile, budget=budget, seed=seed,
                      eval_timeout=eval_timeout, plots=plots)
    with backend_for(executor) as backend:
        return BoundCheck(_check(target, against=against, region=region, fixed=fixed,
                                 maps=map, options=options, command="dpverify.check_bound(...)",
                                 progress=progress, executor=backend.executor))
