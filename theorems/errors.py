"""Every error dpverify raises on purpose, in one hierarchy under :class:`DpVerifyError`.

The command line maps them to exit codes: :class:`InvalidParameter`, :class:`UnknownName` and
:class:`UsageError` are the caller's mistakes (exit 2); :class:`PrecisionExhausted` and the
others are dpverify's own limits (exit 3), never a verdict.
"""

from __future__ import annotations


class DpVerifyError(Exception):
    """Base class of every error dpverify raises on purpose."""


class InvalidParameter(DpVerifyError, ValueError):
    """A parameter is missing, unknown or outside its domain; the message names it."""


class UnknownName(DpVerifyError, KeyError):
    """An unknown theorem id or evaluator name."""

    def __str__(self) -> str:  # KeyError quotes its message; we want it plain
        return str(self.args[0]) if self.args else ""


class UsageError(DpVerifyError):
    """A command line that cannot be carried out as given (exit 2)."""


class Unsupported(DpVerifyError):
    """The formula uses an operation this context cannot perform (e.g. quadrature in arb)."""


class PrecisionExhausted(DpVerifyError):
    """Rising precision did not make an enclosure narrow enough."""


class NoConvergence(DpVerifyError):
    """An approximation (an infinite series, a quadrature) did not reach the working precision
    within its stated limit of terms or nodes: the value is not known, the check undecided."""


class TranslationError(DpVerifyError, ValueError):
    """A formula could not be translated to the SMT solver's language."""


class BudgetExpired(DpVerifyError):
    """Raised inside a verifier when its time budget runs out (the check is ``inconclusive``,
    never a pass)."""


__all__ = [
    "BudgetExpired",
    "DpVerifyError",
    "InvalidParameter",
    "NoConvergence",
    "PrecisionExhausted",
    "TranslationError",
    "UnknownName",
    "Unsupported",
    "UsageError",
]
