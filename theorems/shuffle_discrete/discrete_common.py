"""Shared pieces of the discrete-mechanism and subsampled-RDP modules of shuffle_discrete (no
entries)."""

from __future__ import annotations

from typing import Any

FAMILY = "shuffle_discrete"


def const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)
