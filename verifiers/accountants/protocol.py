"""The Accountant protocol: what ``dpverify audit`` asks of an accountant.

An accountant is any object with

- ``name: str`` — how it is shown in reports;
- ``epsilon(scenario, delta) -> float`` — the epsilon it claims for the scenario at ``delta``;
- ``delta(scenario, epsilon) -> float`` — the delta it claims at ``epsilon``.

Optional (trade-off queries of a scenario file's ``fprs`` and ``gdp_mu``; an accountant
without them is ``UNSUPPORTED`` there):

- ``tpr(scenario, fpr) -> float`` — the largest true-positive rate at type-I error ``fpr`` of
  a test between neighbouring outputs that it admits (an upper bound, as eps and delta are);
- ``gdp_mu(scenario) -> float`` — the GDP parameter mu it reports (a claim of mu-GDP).

``scenario`` is a :class:`verifiers.accountants.scenario.Scenario`: read it as attributes
(``scenario.events[0].sigma``) or exactly as its JSON (``scenario["events"][0]["sigma"]``;
``scenario.to_dict()`` gives a plain dict). A scenario (or a query) the accountant does not
support raises :class:`NotImplementedError` — the audit records ``UNSUPPORTED`` with its message.
Any other exception, a NaN, a negative value, an infinite value where a finite one is due, or a
call that outlives the per-call timeout is recorded as ``ERROR``; the audit goes on.

``dpverify audit --accountant module:object`` loads ``object`` from ``module`` (the current
directory is on the import path); ``object`` may be an accountant instance, or a class or
zero-argument factory that returns one.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Protocol, runtime_checkable

from dpverify.theorems.core import InvalidParameter


@runtime_checkable
class Accountant(Protocol):
    """The stable accountant protocol (see the module docstring)."""

    name: str

    def epsilon(self, scenario: Any, delta: float) -> float: ...

    def delta(self, scenario: Any, epsilon: float) -> float: ...


def _looks_like_accountant(obj: Any) -> bool:
    return (callable(getattr(obj, "epsilon", None)) and callable(getattr(obj, "delta", None))
            and not isinstance(obj, type))


def _one_line(e: BaseException, limit: int = 200) -> str:
    text = " ".join(str(e).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def load_accountant(spec: str) -> Any:
    """An accountant from ``module:object`` (an instance, a class, or a factory).

    Anything that goes wrong while loading — the module is missing, raises or calls
    ``sys.exit`` on import, has no such object, or the factory fails — is an
    :class:`InvalidParameter` naming the module (the CLI's exit 2, one line). The import runs
    in the audit process: a module that calls ``os._exit`` or hangs on import is not caught.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise InvalidParameter(f"--accountant must be a built-in name or module:object; "
                               f"got {spec!r}")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise InvalidParameter(f"cannot import module {module_name!r} for --accountant "
                               f"{spec}: {_one_line(e)}") from None
    except KeyboardInterrupt:
        raise
    except SystemExit as e:
        raise InvalidParameter(f"importing module {module_name!r} for --accountant {spec} "
                               f"called sys.exit({e.code!r})") from None
    except BaseException as e:
        raise InvalidParameter(f"importing module {module_name!r} for --accountant {spec} "
                               f"failed: {type(e).__name__}: {_one_line(e)}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise InvalidParameter(f"module {module_name!r} has no attribute {attr!r} "
                                   f"(--accountant {spec})")
        obj = getattr(obj, part)
    if not _looks_like_accountant(obj):
        if callable(obj):
            try:
                obj = obj()
            except KeyboardInterrupt:
                raise
            except BaseException as e:
                raise InvalidParameter(f"--accountant {spec}: calling {attr}() failed: "
                                       f"{type(e).__name__}: {_one_line(e)}") from None
        if not _looks_like_accountant(obj):
            raise InvalidParameter(f"--accountant {spec} is not an accountant: it needs "
                                   "epsilon(scenario, delta) and delta(scenario, epsilon)")
    if not isinstance(getattr(obj, "name", None), str) or not obj.name:
        try:
            obj.name = spec
        except Exception:
            raise InvalidParameter(f"--accountant {spec} needs a name: str attribute") from None
    return obj


__all__ = ["Accountant", "load_accountant"]
