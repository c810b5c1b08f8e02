"""The one timing method of every table in BENCHMARKS.md: paired CPU-time ratios.

The machine is shared (two cores, other jobs running), so a figure is never a time
measured alone.  Each measurement runs the command under test (A) and its baseline
(B) in turn, ``A B A B …``; each pair gives one ratio of CPU times (user + system:
for a child process the kernel's own accounting, read with ``os.wait4``; in this
process ``resource.getrusage``), and the table prints the median of the per-pair
ratios and their minimum, with the load average at the start and the end.  A busy
moment slows both members of a pair alike; a quiet moment for one side and a busy
one for the other moves one ratio of many, not the median.

    from timing import Pairs, command, in_process
    pairs = Pairs.measure(command("icml2026", "show", "K"), command(sys.executable, "-c", "import json"), 21)
    print(pairs.row("show K", 'python -c "import json"', target=2.0))
"""

from __future__ import annotations

import gc
import os
import resource
import statistics
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Measure = Callable[[], float]  # one run; returns its CPU seconds


def command(*argv: str, env: dict[str, str] | None = None, stdin: bytes | None = None) -> Measure:
    """A run of *argv* as a fresh process: its CPU seconds (user + system of the child,
    from ``os.wait4``); output is discarded, a failure raises."""

    def run() -> float:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        if stdin is not None:
            assert process.stdin is not None
            process.stdin.write(stdin)
            process.stdin.close()
        assert process.stderr is not None
        error = process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        process.stderr.close()
        if process.returncode:
            raise RuntimeError(f"{' '.join(argv)} failed ({process.returncode}): {error.decode()[-500:]}")
        return usage.ru_utime + usage.ru_stime

    return run


def in_process(work: Callable[[], Any], *, setup: Callable[[], Any] | None = None, gc_off: bool = False) -> Measure:
    """A run of *work* in this process: its CPU seconds (``resource.getrusage``), after
    *setup* (not timed) and a full collection; with *gc_off*, the cyclic collector is
    disabled while it runs."""

    def run() -> float:
        if setup is not None:
            setup()
        gc.collect()
        enabled = gc.isenabled()
        if gc_off:
            gc.disable()
        try:
            before = resource.getrusage(resource.RUSAGE_SELF)
            work()
            after = resource.getrusage(resource.RUSAGE_SELF)
        finally:
            if enabled:
                gc.enable()
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    return run


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


@dataclass(frozen=True)
class Pairs:
    """CPU seconds of A and B, pair by pair, and the load average around them."""

    a: tuple[float, ...]
    b: tuple[float, ...]
    load_before: str
    load_after: str

    @classmethod
    def measure(cls, a: Measure, b: Measure, pairs: int, *, warmup: int = 1) -> Pairs:
        """*pairs* runs of each, interleaved ``A B A B …``, after *warmup* unrecorded pairs
        (file caches, byte code)."""
        for _ in range(warmup):
            a()
            b()
        load_before = load_average()
        times_a, times_b = [], []
        for _ in range(pairs):
            times_a.append(a())
            times_b.append(b())
        return cls(tuple(times_a), tuple(times_b), load_before, load_average())

    @property
    def ratios(self) -> list[float]:
        return [x / y for x, y in zip(self.a, self.b) if y > 0]

    @property
    def median(self) -> float:
        return statistics.median(self.ratios)

    @property
    def low(self) -> float:
        return min(self.ratios)

    def row(self, name: str, baseline: str, target: float | None = None) -> str:
        """A Markdown table row: operation, A's and B's median CPU time, baseline, ratio
        (median [min] of the pairs), target and verdict, pairs and load average."""
        verdict = ""
        if target is not None:
            verdict = f"≤ {target:g}× " + ("met" if self.median <= target else "**missed**")
        return (f"| {name} | {statistics.median(self.a) * 1000:,.0f} ms | {baseline} | "
                f"{statistics.median(self.b) * 1000:,.0f} ms | {self.median:.2f}× [{self.low:.2f}] | {verdict} | "
                f"{len(self.a)} | {self.load_before} → {self.load_after} |")


HEADER = ("| operation | ours (CPU, median) | baseline | baseline (CPU, median) | ours/baseline: median [min] "
          "of the pairs | target | pairs | load average (1, 5, 15 min) before → after |\n"
          "|---|---|---|---|---|---|---|---|")


def print_table(rows: Sequence[str], title: str = "") -> None:
    if title:
        print(f"\n{title}\n")
    print(HEADER)
    for row in rows:
        print(row, flush=True)


def best_of(repeat: int, work: Callable[[], Any]) -> float:
    """The fastest of *repeat* wall-clock runs of *work*, in seconds: the older method, kept for
    the scripts that still use it (bench_check, bench_validate); it does not reproduce under
    load, and no table of BENCHMARKS.md that says "paired" comes from it."""
    import time

    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)
