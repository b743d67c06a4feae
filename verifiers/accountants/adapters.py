"""Built-in adapters: the scenario vocabulary translated to the APIs of public accountants.

Names (stable): ``dp_accounting.rdp``, ``dp_accounting.pld``, ``prv_accountant``,
``autodp.rdp``, ``opacus.rdp``, ``opacus.prv``, ``opacus.gdp``.

Each adapter imports its library lazily (a missing library makes every call raise
``NotImplementedError`` naming the extra to install, so the audit shows ``UNSUPPORTED`` with the
reason) and raises ``NotImplementedError`` for what the library cannot express, saying why. It
never substitutes a different analysis for one the library lacks: a scenario is handed to the
library exactly as its documentation asks, and the library's answer is reported as is.

Translation (sensitivity 1; catalogue README, scenario conventions):

==================  ======================================================================
dp_accounting       ``GaussianDpEvent(sigma)``, ``LaplaceDpEvent(b)``,
                    ``RandomizedResponseDpEvent(noise_parameter=2/(1+e^eps0), num_buckets=2)``
                    (P[truth] = 1 - p/2, so the mechanism is eps0-DP),
                    ``PoissonSampledDpEvent(q, .)``, ``SelfComposedDpEvent(., count)``,
                    ``ComposedDpEvent``; the accountant is built with
                    ``NeighboringRelation.ADD_OR_REMOVE_ONE`` or ``REPLACE_ONE``; the library's
                    own refusals (``UnsupportedEventError``) become NotImplementedError. It has
                    no event for an (eps0, delta0) guarantee: pure_dp and approx_dp are
                    unsupported.
prv_accountant      ``GaussianMechanism(sigma, l2_sensitivity=1 or 2)``,
                    ``PoissonSubsampledGaussianMechanism(q, sigma)`` (add/remove only),
                    ``LaplaceMechanism(mu=sensitivity/b)``, ``PureDPMechanism(eps0)`` (for
                    randomized_response and pure_dp: the PRV of RR(eps0)),
                    ``ApproximateDPMechanism(eps0, delta0)``; ``PRVAccountant`` with
                    ``eps_error=0.01`` and ``delta_error=delta/1000`` (Opacus's defaults) and
                    the reported value is the accountant's *upper* bound. delta queries use
                    ``delta_error=1e-12``.
autodp.rdp          ``GaussianMechanism(sigma_eff)``, ``LaplaceMechanism(b_eff)`` (sigma/2 and
                    b/2 under replace_one), ``RandresponseMechanism(p=e^eps0/(1+e^eps0))``,
                    ``PureDP_Mechanism(eps0)``; Poisson sampling through
                    ``AmplificationBySampling(PoissonSampling=True)`` (the improved bound for
                    the Gaussian) under add/remove only; composed by ``Composition`` (RDP);
                    ``get_approxDP(delta)`` and ``get_approx_delta(eps)``.
opacus.*            the accountant's ``history`` of ``(sigma, q, steps)`` (q = 1 for an
                    unsampled Gaussian); Opacus accounts only Gaussian steps under add/remove
                    and answers only ``get_epsilon(delta)``. ``opacus.gdp`` also needs a single
                    (sigma, q) for the whole run; its ``gdp_mu`` is ``analysis.gdp.
                    compute_mu_poisson`` (the CLT mu).
dp_accounting.pld   also ``tpr(scenario, fpr)`` = ``get_true_positive_rates(fpr)`` and
                    ``gdp_mu(scenario)`` = ``get_gdp_parameter_estimate()`` (default grids);
                    no DpEvent exists for the discrete mechanisms (unsupported).
==================  ======================================================================
"""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Callable
from typing import Any

from dpverify.theorems.core import InvalidParameter
from dpverify.verifiers.accountants.scenario import Scenario

EXTRA = {"dp_accounting": "accountants", "prv_accountant": "accountants",
         "autodp": "accountants", "opacus": "opacus"}


def _import(module: str) -> Any:
    top = module.split(".")[0]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(module)
    except ImportError as e:
        hint = f"pip install 'dpverify[{EXTRA.get(top, 'accountants')}]'"
        if top == "opacus":
            hint = "pip install torch (a CPU build) first, then " + hint
        raise NotImplementedError(f"{top} is not installed ({e}); {hint}") from None


class _Adapter:
    """Common behaviour: a name, lazy import (``prepare``), NotImplementedError for gaps."""

    name = "adapter"
    modules: tuple[str, ...] = ()

    def prepare(self) -> None:
        """Import the library now (the audit calls this once before forking its workers)."""
        for m in self.modules:
            _import(m)

    def epsilon(self, scenario: Any, delta: float) -> float:
        raise NotImplementedError(f"{self.name} does not answer epsilon(delta)")

    def delta(self, scenario: Any, epsilon: float) -> float:
        raise NotImplementedError(f"{self.name} does not answer delta(epsilon)")

    def __repr__(self) -> str:
        return f"<{self.name} adapter>"


def _scenario(s: Any) -> Scenario:
    if isinstance(s, Scenario):
        return s
    return Scenario.from_dict(s)


# ------------------------------------------------------------------------------------------
# dp_accounting


class _DpAccounting(_Adapter):
    modules = ("dp_accounting",)
    kind = "rdp"

    def _accountant(self, scenario: Any) -> Any:
        dpa = _import("dp_accounting")
        sc = _scenario(scenario)
        rel = (dpa.NeighboringRelation.ADD_OR_REMOVE_ONE if sc.neighboring == "add_remove"
               else dpa.NeighboringRelation.REPLACE_ONE)
        events = []
        for i, ev in enumerate(sc.events, 1):
            if ev.mechanism == "gaussian":
                e: Any = dpa.GaussianDpEvent(noise_multiplier=ev.sigma)
            elif ev.mechanism == "laplace":
                e = dpa.LaplaceDpEvent(noise_multiplier=ev.b)
            elif ev.mechanism == "randomized_response":
                p = 2.0 / (1.0 + math.exp(ev.eps0))  # type: ignore[arg-type]
                e = dpa.RandomizedResponseDpEvent(noise_parameter=p, num_buckets=2)
            else:
                what = ("an (eps0, delta0) guarantee" if ev.mechanism in ("pure_dp", "approx_dp")
                        else f"the {ev.mechanism} mechanism")
                raise NotImplementedError(f"event {i}: dp_accounting has no DpEvent for {what}")
            if ev.sampling is not None:
                e = dpa.PoissonSampledDpEvent(sampling_probability=ev.sampling.q, event=e)
            events.append(dpa.SelfComposedDpEvent(event=e, count=ev.count))
        event = events[0] if len(events) == 1 else dpa.ComposedDpEvent(events=events)
        if self.kind == "rdp":
            from dp_accounting.rdp import RdpAccountant

            acc = RdpAccountant(neighboring_relation=rel)
        else:
            from dp_accounting.pld import PLDAccountant

            acc = PLDAccountant(neighboring_relation=rel)
        try:
            acc.compose(event)
        except dpa.UnsupportedEventError as err:
            raise NotImplementedError(f"dp_accounting {type(acc).__name__} refuses the "
                                      f"scenario: {err}") from None
        return acc

    def epsilon(self, scenario: Any, delta: float) -> float:
        return float(self._accountant(scenario).get_epsilon(delta))

    def delta(self, scenario: Any, epsilon: float) -> float:
        return float(self._accountant(scenario).get_delta(epsilon))


class DpAccountingRdp(_DpAccounting):
    """dp_accounting's ``RdpAccountant`` (default orders)."""

    name = "dp_accounting.rdp"
    kind = "rdp"


class DpAccountingPld(_DpAccounting):
    """dp_accounting's ``PLDAccountant`` (default value_discretization_interval 1e-4); it also
    answers ``tpr`` (``get_true_positive_rates``) and ``gdp_mu``
    (``get_gdp_parameter_estimate``, default grids) where the installed version has them."""

    name = "dp_accounting.pld"
    kind = "pld"

    def _method(self, scenario: Any, name: str) -> Any:
        method = getattr(self._accountant(scenario), name, None)
        if not callable(method):
            raise NotImplementedError(f"this dp_accounting version has no "
                                      f"PLDAccountant.{name}")
        return method

    def tpr(self, scenario: Any, fpr: float) -> float:
        return float(self._method(scenario, "get_true_positive_rates")(fpr))

    def gdp_mu(self, scenario: Any) -> float:
        return float(self._method(scenario, "get_gdp_parameter_estimate")())


# ------------------------------------------------------------------------------------------
# prv_accountant


class PrvAccountant(_Adapter):
    """prv_accountant's ``PRVAccountant``; the reported value is its upper bound."""

    name = "prv_accountant"
    modules = ("prv_accountant",)
    eps_error = 0.01

    def _prvs(self, scenario: Any) -> tuple[list[Any], list[int]]:
        _import("prv_accountant")
        from prv_accountant import privacy_random_variables as prv

        sc = _scenario(scenario)
        replace = sc.neighboring == "replace_one"
        prvs, counts = [], []
        for i, ev in enumerate(sc.events, 1):
            if ev.sampling is not None and (ev.mechanism != "gaussian" or replace):
                raise NotImplementedError(
                    f"event {i}: prv_accountant has a Poisson-subsampled PRV only for the "
                    "Gaussian under add/remove")
            if ev.mechanism == "gaussian":
                if ev.sampling is not None:
                    r: Any = prv.PoissonSubsampledGaussianMechanism(
                        noise_multiplier=ev.sigma, sampling_probability=ev.sampling.q)
                else:
                    r = prv.GaussianMechanism(noise_multiplier=ev.sigma,
                                              l2_sensitivity=2.0 if replace else 1.0)
            elif ev.mechanism == "laplace":
                r = prv.LaplaceMechanism(mu=(2.0 if replace else 1.0) / ev.b)  # type: ignore
            elif ev.mechanism in ("randomized_response", "pure_dp"):
                r = prv.PureDPMechanism(eps=ev.eps0)
            elif ev.mechanism == "approx_dp":
                r = prv.ApproximateDPMechanism(epsilon=ev.eps0, delta=ev.delta0)
            else:
                raise NotImplementedError(f"event {i}: prv_accountant has no PRV for the "
                                          f"{ev.mechanism} mechanism")
            prvs.append(r)
            counts.append(ev.count)
        return prvs, counts

    def epsilon(self, scenario: Any, delta: float) -> float:
        from prv_accountant import PRVAccountant

        prvs, counts = self._prvs(scenario)
        acc = PRVAccountant(prvs=prvs, max_self_compositions=counts, eps_error=self.eps_error,
                            delta_error=delta / 1000)
        _lo, _est, hi = acc.compute_epsilon(delta=delta, num_self_compositions=counts)
        return float(hi)

    def delta(self, scenario: Any, epsilon: float) -> float:
        from prv_accountant import PRVAccountant

        prvs, counts = self._prvs(scenario)
        acc = PRVAccountant(prvs=prvs, max_self_compositions=counts, eps_error=self.eps_error,
                            delta_error=1e-12)
        _lo, _est, hi = acc.compute_delta(epsilon=epsilon, num_self_compositions=counts)
        return float(hi)


# ------------------------------------------------------------------------------------------
# autodp


class AutodpRdp(_Adapter):
    """autodp's RDP composition (``Composition``) with its RDP-to-DP conversion."""

    name = "autodp.rdp"
    modules = ("autodp.mechanism_zoo", "autodp.transformer_zoo")

    def _mechanism(self, scenario: Any) -> Any:
        zoo = _import("autodp.mechanism_zoo")
        tz = _import("autodp.transformer_zoo")
        sc = _scenario(scenario)
        replace = sc.neighboring == "replace_one"
        mechs, coeffs = [], []
        for i, ev in enumerate(sc.events, 1):
            if ev.sampling is not None and replace:
                raise NotImplementedError(
                    f"event {i}: autodp's Poisson amplification is for add/remove only "
                    "(AmplificationBySampling asserts it)")
            if ev.mechanism == "gaussian":
                m: Any = zoo.GaussianMechanism(sigma=ev.sigma / 2 if replace else ev.sigma)
            elif ev.mechanism == "laplace":
                m = zoo.LaplaceMechanism(b=ev.b / 2 if replace else ev.b)  # type: ignore
            elif ev.mechanism == "randomized_response":
                m = zoo.RandresponseMechanism(p=1.0 / (1.0 + math.exp(-ev.eps0)))  # type: ignore
            elif ev.mechanism == "pure_dp":
                m = zoo.PureDP_Mechanism(eps=ev.eps0)
            else:
                raise NotImplementedError(f"event {i}: autodp's RDP composition has no "
                                          f"{ev.mechanism} mechanism here")
            if ev.sampling is not None:
                m = tz.AmplificationBySampling(PoissonSampling=True)(
                    m, ev.sampling.q, improved_bound_flag=ev.mechanism == "gaussian")
            mechs.append(m)
            coeffs.append(ev.count)
        return tz.Composition()(mechs, coeffs)

    def epsilon(self, scenario: Any, delta: float) -> float:
        return float(self._mechanism(scenario).get_approxDP(delta))

    def delta(self, scenario: Any, epsilon: float) -> float:
        return float(self._mechanism(scenario).get_approx_delta(epsilon))


# ------------------------------------------------------------------------------------------
# Opacus


class _Opacus(_Adapter):
    modules = ("opacus.accountants",)
    cls_name = "RDPAccountant"

    def _history(self, scenario: Any) -> list[tuple[float, float, int]]:
        sc = _scenario(scenario)
        if sc.neighboring != "add_remove":
            raise NotImplementedError("Opacus accounts under add/remove only")
        hist: list[tuple[float, float, int]] = []
        for i, ev in enumerate(sc.events, 1):
            if ev.mechanism != "gaussian":
                raise NotImplementedError(f"event {i}: Opacus accounts only (subsampled) "
                                          f"Gaussian steps, not {ev.mechanism}")
            q = 1.0 if ev.sampling is None else float(ev.sampling.q)
            if hist and hist[-1][:2] == (ev.sigma, q):
                hist[-1] = (ev.sigma, q, hist[-1][2] + ev.count)  # type: ignore[assignment]
            else:
                hist.append((ev.sigma, q, ev.count))  # type: ignore[arg-type]
        return hist

    def _accountant(self, scenario: Any) -> Any:
        mod = _import("opacus.accountants")
        hist = self._history(scenario)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            acc = getattr(mod, self.cls_name)()
        acc.history = list(hist)
        return acc

    def epsilon(self, scenario: Any, delta: float) -> float:
        acc = self._accountant(scenario)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(acc.get_epsilon(delta=delta))

    def delta(self, scenario: Any, epsilon: float) -> float:
        raise NotImplementedError("Opacus accountants answer only get_epsilon(delta)")


class OpacusRdp(_Opacus):
    """Opacus ``RDPAccountant`` (its default orders)."""

    name = "opacus.rdp"
    cls_name = "RDPAccountant"


class OpacusPrv(_Opacus):
    """Opacus ``PRVAccountant`` (eps_error 0.01, delta_error delta/1000; upper bound)."""

    name = "opacus.prv"
    cls_name = "PRVAccountant"


class OpacusGdp(_Opacus):
    """Opacus ``GaussianAccountant`` (the GDP central-limit approximation, Poisson)."""

    name = "opacus.gdp"
    cls_name = "GaussianAccountant"

    def _history(self, scenario: Any) -> list[tuple[float, float, int]]:
        hist = super()._history(scenario)
        if len(hist) > 1:
            raise NotImplementedError("Opacus GaussianAccountant needs one noise multiplier "
                                      "and one sample rate for the whole run")
        return hist

    def gdp_mu(self, scenario: Any) -> float:
        """``opacus.accountants.analysis.gdp.compute_mu_poisson`` (the CLT mu, DRS-GDP.mu_clt)
        of the run, the mu behind the GaussianAccountant's epsilon."""
        sigma, q, steps = self._history(scenario)[0]
        gdp = _import("opacus.accountants.analysis.gdp")
        return float(gdp.compute_mu_poisson(steps=steps, noise_multiplier=sigma,
                                            sample_rate=q))


BUILTIN: dict[str, Callable[[], Any]] = {
    "dp_accounting.rdp": DpAccountingRdp,
    "dp_accounting.pld": DpAccountingPld,
    "prv_accountant": PrvAccountant,
    "autodp.rdp": AutodpRdp,
    "opacus.rdp": OpacusRdp,
    "opacus.prv": OpacusPrv,
    "opacus.gdp": OpacusGdp,
}


def builtin(name: str) -> Any:
    try:
        return BUILTIN[name]()
    except KeyError:
        raise InvalidParameter(f"unknown built-in accountant {name!r}; built-ins are "
                               f"{', '.join(BUILTIN)} (or give module:object)") from None


__all__ = ["BUILTIN", "builtin"]
