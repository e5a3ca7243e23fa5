"""The buyer's caps: a per-report cap, and a task budget that is a running total per buyer, reserved when
signing and released only on a definitive service refusal (nothing charged); a held purchase stays counted."""

from __future__ import annotations

import threading

from .errors import BuyerRefused


class TaskBudget:
    def __init__(self, max_per_report: int, max_per_task: int) -> None:
        self.max_per_report = int(max_per_report)
        self.max_per_task = int(max_per_task)
        self._spent = 0
        self._lock = threading.Lock()

    @property
    def spent(self) -> int:
        return self._spent

    def _over_task(self, amount: int) -> BuyerRefused:
        return BuyerRefused(
            "TASK_BUDGET_EXHAUSTED",
            f"paying {amount} would exceed the task budget ({self._spent} of {self.max_per_task} spent)",
        )

    def assert_affordable(self, amount: int) -> None:
        """Refuses, before anything is signed or sent, a known price this buyer may not pay."""
        if amount > self.max_per_report:
            raise BuyerRefused(
                "PRICE_ABOVE_REPORT_BUDGET", f"the price {amount} exceeds the per-report cap {self.max_per_report}"
            )
        if self._spent + amount > self.max_per_task:
            raise self._over_task(amount)

    def reserve(self, amount: int) -> None:
        with self._lock:
            if self._spent + amount > self.max_per_task:
                raise self._over_task(amount)
            self._spent += amount

    def count(self, amount: int) -> None:
        """Counts what was already paid (an earlier run of the same task) without a check."""
        with self._lock:
            self._spent += amount

    def release(self, amount: int) -> None:
        with self._lock:
            self._spent = max(0, self._spent - amount)

    def remaining(self) -> int:
        """What a quote may cost at most: the per-report cap or what is left of the task budget."""
        return min(self.max_per_task - self._spent, self.max_per_report)

    def task_bound(self) -> bool:
        return self.max_per_task - self._spent < self.max_per_report

    def assert_not_exhausted(self, budget: int) -> None:
        if budget <= 0:
            raise BuyerRefused("TASK_BUDGET_EXHAUSTED", f"no budget left ({self._spent} of {self.max_per_task} spent)")
