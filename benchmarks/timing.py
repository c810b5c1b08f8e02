"""Timing helper shared by the benchmark scripts."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def best_of(repeat: int, work: Callable[[], Any]) -> float:
    """The fastest of *repeat* runs of *work*, in seconds (the least disturbed run)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)
