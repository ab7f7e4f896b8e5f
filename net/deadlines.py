"""Timers as deadlines, sans-I/O: the table core says when it wants to be woken and
what for; its driver sleeps until ``next`` and hands it the time.

Never cancelled: a timer that no longer matters finds so when it fires (its key names
the seat, version or hand it was for). Timers due at the same time fire in the order
they were set.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Generic, TypeVar

T = TypeVar("T")


class Deadlines(Generic[T]):
    """What is due when: ``add(when, what)``, ``due(now)`` in order, ``next``."""

    __slots__ = ("_heap", "_order")

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, T]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._heap)

    def add(self, when: float, what: T) -> None:
        heapq.heappush(self._heap, (when, next(self._order), what))

    @property
    def next(self) -> float | None:
        """The earliest deadline (None: nothing is due ever)."""
        return self._heap[0][0] if self._heap else None

    def due(self, now: float) -> list[T]:
        """Every timer due by ``now``, taken out, in order (one set while they fire
        waits for the next call: a bot answering a bot does not keep the driver from
        everything else)."""
        heap, due = self._heap, []
        while heap and heap[0][0] <= now:
            due.append(heapq.heappop(heap)[2])
        return due
