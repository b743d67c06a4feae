"""hypothesis searches whose draws depend on the seed and the versions only.

hypothesis (6.131 and later) draws, now and then, a constant found in the source of a loaded
"local" module: any module whose file is not in site-packages or the standard library. For
dpverify that is every module of an editable install or a checkout, but none of a wheel; and it
is the caller's own scripts, test suite or notebook. So the same seed drew different points in
a checkout and in a wheel install, after a lazily imported module (``theorems.limits``) had
been loaded or not, or after a user's script changed: a failed claim's reproduce command could
draw other points than the run that found it. :func:`seed_only_draws` gives hypothesis no local
constants (its global constants, fixed by its version, stay) and a constants cache of its own,
so nothing drawn from the caller's modules leaks in through hypothesis's process-wide cache.

This reaches into ``hypothesis.internal`` (``_get_local_constants``, ``CONSTANTS_CACHE``):
where a hypothesis version has neither, it has no local constants to remove and nothing is
patched (tests/test_runner.py checks the draws on the installed version).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def seed_only_draws() -> Iterator[None]:
    """Within the block, hypothesis draws no constants from local modules (restored after)."""
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # a hypothesis without local constants
        yield
        return
    getter = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if getter is None or cache is None:
        yield
        return
    none = Constants()
    providers._get_local_constants = lambda: none
    providers.CONSTANTS_CACHE = type(cache)(cache.max_size)
    try:
        yield
    finally:
        providers._get_local_constants = getter
        providers.CONSTANTS_CACHE = cache
