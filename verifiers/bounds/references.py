"""The certified truths a bound is checked against: rigorous enclosures of the optimal eps(delta)
(``--kind eps``) or delta(eps) (``--kind delta``) of a composition.

Each :class:`Reference` names its parameters (with their domains, integer and log-scale flags),
encloses the true value at a point (exact rational endpoints), and — when the value is monotone
in every parameter — over a whole box, from two corners. The monotonicity is a theorem of the
route, stated with it:

- ``optimal-composition``: k-fold eps0-DP / (eps0, delta0)-DP, the exact optimum of [KOV] arXiv
  1311.0776v4, Thm 3.3 (= [MV] arXiv 1507.03113, Thm 1.4). eps(delta) is nondecreasing in eps0,
  delta0 and k (the class of mechanisms grows; a k-fold composition is a post-processing of the
  (k+1)-fold one) and nonincreasing in delta; delta(eps) likewise, nonincreasing in eps.
- ``heterogeneous-composition``: [MV] Thm 1.5 for a list eps_list (monotone in delta / eps).
- ``gaussian``: k-fold Gaussian mechanism of sensitivity 1 = one Gaussian with sigma/sqrt(k)
  ([BW18] arXiv 1805.06530v2, Thm 8; [DRS] arXiv 1905.02383, Cor. 3.3): decreasing in sigma,
  nondecreasing in k.
- ``subsampled-gaussian``, ``laplace``, ``randomized-response``: the certified references of
  the accountant audit (:mod:`verifiers.accountants.reference`: certified PLD engine, Laplace
  closed form, KOV), pointwise only.
- any catalogue evaluator ``ID.NAME`` whose formula has an arb route: pointwise only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.ctx import ArbCtx, PrecisionExhausted, arb_endpoints, arb_precision
from dpverify.theorems.errors import InvalidParameter, UnknownName
from dpverify.theorems.formulas import gaussian, kov_mv

INF = math.inf
Value = Fraction | float  # a Fraction, or math.inf
Point = Mapping[str, Any]  # name -> Fraction | int | tuple of Fractions


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a reference: its domain and how the search treats it."""

    name: str
    lo: Fraction | None = None  # domain lower end (None: unbounded)
    hi: Fraction | None = None
    lo_open: bool = False
    hi_open: bool = False
    integer: bool = False
    log_scale: bool = False
    default: Any = None
    is_list: bool = False
    direction: int = 0  # +1 / -1: the reference value is monotone in it; 0: unknown

    def domain(self) -> str:
        if self.is_list:
            return "a comma-separated list of numbers > 0"
        if self.integer:
            return f"an integer >= {self.lo}"
        left = "(" if self.lo_open else "["
        right = ")" if self.hi_open else "]"
        lo = "-inf" if self.lo is None else _short(self.lo)
        hi = "inf" if self.hi is None else _short(self.hi)
        return f"{left}{lo}, {hi}{right}"

    def contains(self, x: Fraction) -> bool:
        if self.lo is not None and (x < self.lo or (self.lo_open and x == self.lo)):
            return False
        return not (self.hi is not None and (x > self.hi or (self.hi_open and x == self.hi)))


def _short(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else repr(float(x))


@dataclass(frozen=True)
class KnownBound:
    """A catalogue bound of the same quantity, reached through the registry."""

    label: str
    theorem: str
    evaluator: str
    args: Callable[[Point], dict[str, Any] | None]  # None: not applicable at this point


@dataclass(frozen=True)
class Reference:
    """A certified reference for one ``kind`` (``eps`` or ``delta``)."""

    name: str
    kind: str
    description: str
    params: tuple[ParamSpec, ...]
    point_fn: Callable[[Point, int], tuple[Value, Value]] = field(repr=False)
    resolution_bits: int = 0  # 0: rises with precision; else the fixed relative resolution
    known: tuple[KnownBound, ...] = ()
    slow: bool = False  # a point costs ~0.1 s or more: the search plans fewer points

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def spec(self, name: str) -> ParamSpec:
        for p in self.params:
            if p.name == name:
                return p
        raise UnknownName(f"{self.name} has no parameter {name!r} (parameters: "
                          f"{', '.join(self.names)})")

    @property
    def box_capable(self) -> bool:
        return all(p.direction != 0 or p.is_list for p in self.params) and not \
            self.resolution_bits

    def enclose(self, point: Point, prec: int = 128) -> tuple[Value, Value]:
        """Certified ``lo <= true value <= hi`` at an exact point."""
        return self.point_fn(point, prec)

    def enclose_box(self, box: Mapping[str, tuple[Any, Any]], prec: int = 128,
                    cache: dict[tuple[Any, ...], tuple[Value, Value]] | None = None
                    ) -> tuple[Value, Value]:
        """Certified range over a box (``name -> (lo, hi)``), from the two extreme corners
        (``cache``: corner enclosures shared between neighbouring boxes)."""
        low: dict[str, Any] = {}
        high: dict[str, Any] = {}
        for p in self.params:
            a, b = box[p.name]
            if p.is_list or a == b:
                low[p.name] = high[p.name] = a
                continue
            if p.direction == 0:
                raise InvalidParameter(f"{self.name} is not monotone in {p.name}")
            low[p.name], high[p.name] = (a, b) if p.direction > 0 else (b, a)
        return self._corner(low, prec, cache)[0], self._corner(high, prec, cache)[1]

    def _corner(self, point: dict[str, Any], prec: int,
                cache: dict[tuple[Any, ...], tuple[Value, Value]] | None
                ) -> tuple[Value, Value]:
        if cache is None:
            return self.enclose(point, prec)
        key = tuple(sorted(point.items()))
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = self.enclose(point, prec)
        return hit


# ------------------------------------------------------------------------------------------
# arb helpers


def enclose_arb(thunk: Callable[[ArbCtx], Any], prec: int) -> tuple[Value, Value]:
    """Exact endpoints of ``thunk(ArbCtx(prec))`` (``inf`` for an exact +infinity)."""
    ctx = ArbCtx(prec)
    with arb_precision(prec):
        x = flint.arb(thunk(ctx))
    if not x.is_finite():
        if not x.mid().is_finite() and x.mid() > 0 and x.rad() == 0:
            return INF, INF
        raise PrecisionExhausted(f"no finite enclosure at {prec} bits")
    return arb_endpoints(x)


def _nonneg(lo: Value, hi: Value) -> tuple[Value, Value]:
    return (max(lo, Fraction(0)) if lo != INF else lo), hi


def _clip01(lo: Value, hi: Value) -> tuple[Value, Value]:
    lo, hi = _nonneg(lo, hi)
    return lo, (min(hi, Fraction(1)) if hi != INF else Fraction(1))


def _frac(x: Any) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


# ------------------------------------------------------------------------------------------
# parameter sets

ZERO, ONE = Fraction(0), Fraction(1)


def _p(name: str, **kw: Any) -> ParamSpec:
    return ParamSpec(name, **kw)


def _target_param(kind: str, direction_delta: int = -1) -> ParamSpec:
    if kind == "eps":
        return _p("delta", lo=ZERO, hi=ONE, lo_open=True, hi_open=True, log_scale=True,
                  direction=direction_delta)
    return _p("eps", lo=ZERO, direction=-1)


EPS0 = _p("eps0", lo=ZERO, lo_open=True, direction=+1)
K = _p("k", lo=ONE, integer=True, direction=+1)
DELTA0 = _p("delta0", lo=ZERO, hi=ONE, hi_open=True, default=ZERO, log_scale=True,
            direction=+1)
SIGMA = _p("sigma", lo=ZERO, lo_open=True, direction=-1)


def _delta_arg(point: Point, kind: str) -> dict[str, Any]:
    return {"delta": _frac(point["delta"])} if kind == "eps" else {"eps": _frac(point["eps"])}


def _kov(kind: str) -> Callable[[Point, int], tuple[Value, Value]]:
    def at(point: Point, prec: int) -> tuple[Value, Value]:
        args = {"eps0": _frac(point["eps0"]), "k": int(point["k"]),
                "delta0": _frac(point.get("delta0", ZERO)), **_delta_arg(point, kind)}
        f = kov_mv.kov_eps if kind == "eps" else kov_mv.kov_delta
        lo, hi = enclose_arb(lambda c: c.run(f, **args), prec)
        return _nonneg(lo, hi) if kind == "eps" else _clip01(lo, hi)

    return at


def _mv(kind: str) -> Callable[[Point, int], tuple[Value, Value]]:
    def at(point: Point, prec: int) -> tuple[Value, Value]:
        eps_list = tuple(_frac(e) for e in point["eps_list"])
        f = kov_mv.mv_eps if kind == "eps" else kov_mv.mv_delta
        args = {"eps_list": eps_list, **_delta_arg(point, kind)}
        lo, hi = enclose_arb(lambda c: c.run(f, **args), prec)
        return _nonneg(lo, hi) if kind == "eps" else _clip01(lo, hi)

    return at


def _gauss(kind: str) -> Callable[[Point, int], tuple[Value, Value]]:
    def at(point: Point, prec: int) -> tuple[Value, Value]:
        sigma, k = _frac(point["sigma"]), int(point["k"])

        def thunk(c: ArbCtx) -> Any:
            s = c.num(sigma) / c.sqrt(c.num(k))
            if kind == "eps":
                return gaussian.gauss_eps(c, s, c.num(_frac(point["delta"])))
            return gaussian.gauss_delta(c, s, c.num(_frac(point["eps"])))

        lo, hi = enclose_arb(thunk, prec)
        return _nonneg(lo, hi) if kind == "eps" else _clip01(lo, hi)

    return at


# -- the audit's certified references (PLD engine, Laplace, KOV), one scenario per point ----

AUDIT_REL_WIDTH = 1e-3
AUDIT_SECONDS = 30.0


def _audit(kind: str, event: Callable[[Point], Any]) -> Callable[[Point, int], tuple[Value,
                                                                                        Value]]:
    from dpverify.verifiers.accountants.reference import reference_for
    from dpverify.verifiers.accountants.scenario import Scenario

    def at(point: Point, prec: int) -> tuple[Value, Value]:
        ref = reference_for(Scenario(events=(event(point),)), AUDIT_REL_WIDTH, AUDIT_SECONDS)
        b = ref.epsilon(_frac(point["delta"])) if kind == "eps" else ref.delta(
            _frac(point["eps"]))
        return b.lo, b.hi

    return at


def _event(mechanism: str, **fields: Any) -> Any:
    from dpverify.verifiers.accountants.scenario import Event, Sampling

    q = fields.pop("q", None)
    return Event(mechanism=mechanism, sampling=None if q is None else Sampling(q=float(q)),
                 **fields)


# -- the catalogue's known bounds ----------------------------------------------------------


def _pure(point: Point) -> bool:
    return _frac(point.get("delta0", ZERO)) == 0


def _composition_known(eps0_of: Callable[[Point], Fraction]) -> tuple[KnownBound, ...]:
    def with_eps0(extra: Callable[[Point, Fraction], dict[str, Any] | None]
                  ) -> Callable[[Point], dict[str, Any] | None]:
        return lambda pt: extra(pt, eps0_of(pt))

    return (
        KnownBound("basic composition", "BASIC", "eps", with_eps0(
            lambda pt, e0: {"eps_list": (e0,) * int(pt["k"])} if _pure(pt) else None)),
        KnownBound("advanced composition (DRV)", "DRV-ADV", "eps", with_eps0(
            lambda pt, e0: {"eps0": e0, "k": int(pt["k"]), "delta": _frac(pt["delta"]),
                            "delta0": _frac(pt.get("delta0", ZERO))})),
        KnownBound("zCDP route, pure (Steinke)", "STK-ADV-PURE", "eps", with_eps0(
            lambda pt, e0: {"eps0": e0, "k": int(pt["k"]), "delta": _frac(pt["delta"])}
            if _pure(pt) else None)),
        KnownBound("zCDP route, approx (Steinke)", "STK-ADV-APPROX", "eps", with_eps0(
            lambda pt, e0: {"eps0": e0, "k": int(pt["k"]), "delta": _frac(pt["delta"]),
                            "delta0": _frac(pt.get("delta0", ZERO))})),
        KnownBound("KOV Thm 3.4", "KOV-34", "eps", with_eps0(
            lambda pt, e0: {"eps0": e0, "k": int(pt["k"]), "delta": _frac(pt["delta"]),
                            "delta0": _frac(pt.get("delta0", ZERO))})),
    )


def _gauss_rho(pt: Point) -> Fraction:
    return Fraction(int(pt["k"])) / (2 * _frac(pt["sigma"]) ** 2)


GAUSS_KNOWN = (
    KnownBound("zCDP conversion (BS16 Prop 1.3)", "STK-ZCDP-CONV", "eps",
               lambda pt: {"rho": _gauss_rho(pt), "delta": _frac(pt["delta"])}),
    KnownBound("zCDP conversion (BS16 Lemma 3.6)", "BS16-L36", "eps",
               lambda pt: {"rho": _gauss_rho(pt), "delta": _frac(pt["delta"])}),
    KnownBound("zCDP conversion (CKS20)", "CKS20-CONV", "eps",
               lambda pt: {"rho": _gauss_rho(pt), "delta": _frac(pt["delta"])}),
    KnownBound("RDP conversion (MTZ, q = 1)", "MTZ-SGM-RDP", "eps",
               lambda pt: {"q": ONE, "sigma": _frac(pt["sigma"]), "k": int(pt["k"]),
                           "delta": _frac(pt["delta"])}),
)

SGM_KNOWN = (
    KnownBound("RDP conversion (MTZ)", "MTZ-SGM-RDP", "eps",
               lambda pt: {"q": _frac(pt["q"]), "sigma": _frac(pt["sigma"]),
                           "k": int(pt["k"]), "delta": _frac(pt["delta"])}),
    KnownBound("RDP conversion (Mironov)", "MTZ-SGM-RDP", "eps_mironov",
               lambda pt: {"q": _frac(pt["q"]), "sigma": _frac(pt["sigma"]),
                           "k": int(pt["k"]), "delta": _frac(pt["delta"])}),
)


# ------------------------------------------------------------------------------------------
# the table

NAMES = ("optimal-composition", "heterogeneous-composition", "gaussian", "subsampled-gaussian",
         "laplace", "randomized-response")


def _builtin(name: str, kind: str) -> Reference:
    t = _target_param(kind)
    if name == "optimal-composition":
        return Reference(
            name, kind, "exact optimal k-fold composition of (eps0, delta0)-DP mechanisms "
            "([KOV] arXiv 1311.0776v4, Thm 3.3; [MV] arXiv 1507.03113, Thm 1.4)",
            (EPS0, K, t, DELTA0), _kov(kind),
            known=_composition_known(lambda pt: _frac(pt["eps0"])) if kind == "eps" else ())
    if name == "heterogeneous-composition":
        return Reference(
            name, kind, "exact optimal composition of eps_i-DP mechanisms ([MV] arXiv "
            "1507.03113, Thm 1.5)", (_p("eps_list", is_list=True), t), _mv(kind), slow=True)
    if name == "gaussian":
        return Reference(
            name, kind, "k-fold Gaussian mechanism, sensitivity 1 ([BW18] arXiv 1805.06530v2, "
            "Thm 8, at sigma/sqrt(k))", (SIGMA, K, t), _gauss(kind),
            known=GAUSS_KNOWN if kind == "eps" else ())
    if name == "subsampled-gaussian":
        q = _p("q", lo=ZERO, hi=ONE, lo_open=True)
        return Reference(
            name, kind, "DP-SGD: k-fold Poisson-subsampled Gaussian under add/remove, certified "
            "PLD engine (verifiers.accountants.reference)",
            (q, replace(SIGMA, direction=0), replace(K, direction=0), replace(t, direction=0)),
            _audit(kind, lambda pt: _event("gaussian", sigma=float(pt["sigma"]),
                                           count=int(pt["k"]), q=pt["q"])),
            resolution_bits=10, known=SGM_KNOWN if kind == "eps" else ())
    if name == "laplace":
        b = _p("b", lo=ZERO, lo_open=True)
        return Reference(
            name, kind, "k-fold Laplace mechanism, sensitivity 1 (Laplace closed form or "
            "certified PLD engine, verifiers.accountants.reference)",
            (b, replace(K, direction=0), replace(t, direction=0)),
            _audit(kind, lambda pt: _event("laplace", b=float(pt["b"]), count=int(pt["k"]))),
            resolution_bits=10,
            known=_composition_known(lambda pt: 1 / _frac(pt["b"])) if kind == "eps" else ())
    if name == "randomized-response":
        return Reference(
            name, kind, "k-fold randomized response RR(eps0) (KOV exact, "
            "verifiers.accountants.reference)", (EPS0, K, t), _kov(kind),
            known=_composition_known(lambda pt: _frac(pt["eps0"])) if kind == "eps" else ())
    raise AssertionError(name)


def catalogue_evaluator(name: str) -> Any:
    """The registry's evaluator ``ID.NAME`` (``ID``: its first evaluator)."""
    from dpverify.theorems import get

    tid, _, evname = name.partition(".")
    th = get(tid)
    if not th.encoded:
        raise InvalidParameter(f"{th.id} is not encoded yet: it has no evaluators")
    return th, th.evaluator(evname or None)


def evaluator_enclosure(ev: Any, args: Mapping[str, Any], prec: int) -> tuple[Value, Value]:
    """Rigorous enclosure of a catalogue evaluator at exact ``args`` (defaults filled)."""
    from dpverify.theorems.core import bind

    bound = bind(ev.params, {k: v for k, v in args.items()
                             if k in {p.name for p in ev.params}}, ev.name)
    return enclose_arb(lambda c: c.run(ev.formula, **bound), prec)


def _catalogue(name: str, kind: str) -> Reference:
    from dpverify.theorems.core import Int, RealList

    th, ev = catalogue_evaluator(name)
    params = []
    for p in ev.params:
        if not hasattr(p, "lo"):
            continue  # a choice: its default is used
        params.append(ParamSpec(
            p.name, lo=None if p.lo is None else Fraction(p.lo),
            hi=None if getattr(p, "hi", None) is None else Fraction(p.hi),
            lo_open=bool(getattr(p, "lo_open", False)), hi_open=bool(getattr(p, "hi_open",
                                                                             False)),
            integer=isinstance(p, Int), is_list=isinstance(p, RealList),
            log_scale=p.name.startswith("delta"), default=p.default))

    def at(point: Point, prec: int) -> tuple[Value, Value]:
        return evaluator_enclosure(ev, point, prec)

    return Reference(f"{th.id}.{ev.name}", kind, f"catalogue evaluator {th.id}.{ev.name}: "
                     f"{th.title}", tuple(params), at)


def make_reference(name: str, kind: str) -> Reference:
    """The reference called ``name`` for ``kind`` (``InvalidParameter`` naming it otherwise)."""
    if kind not in ("eps", "delta"):
        raise InvalidParameter(f"--kind must be eps or delta; got {kind!r}")
    if name in NAMES:
        return _builtin(name, kind)
    if "." in name or name.isupper():
        try:
            return _catalogue(name, kind)
        except UnknownName:
            pass
    raise InvalidParameter(f"--against must be one of {', '.join(NAMES)} or a catalogue "
                           f"evaluator ID.NAME; got {name!r}")


def list_value(text: str, name: str) -> tuple[Fraction, ...]:
    """A comma-separated list of positive numbers, exact as written."""
    try:
        out = tuple(Fraction(x.strip()) for x in text.split(",") if x.strip())
    except ValueError:
        raise InvalidParameter(f"{name} must be a comma-separated list of numbers; got "
                               f"{text!r}") from None
    if not out or any(x <= 0 for x in out):
        raise InvalidParameter(f"{name} must be a non-empty list of numbers > 0; got {text!r}")
    return out


__all__: Sequence[str] = ["NAMES", "KnownBound", "ParamSpec", "Reference", "enclose_arb",
                          "list_value", "make_reference"]
