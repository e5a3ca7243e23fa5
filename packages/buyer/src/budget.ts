import { BuyerRefused } from './errors.js';

// The buyer's caps (docs/decisions.md, "Buyer client"): a per-report cap, and a task budget that is a
// running total per buyer instance, reserved when signing and released only on a definitive service
// refusal (nothing charged); a held purchase stays counted (it was paid).

export interface TaskBudget {
  readonly maxPerReport: bigint;
  readonly maxPerTask: bigint;
  readonly spent: bigint;
  /** Refuses, before anything is signed or sent, a known price this buyer may not pay. */
  assertAffordable(amount: bigint): void;
  reserve(amount: bigint): void;
  release(amount: bigint): void;
  /** What a quote may cost at most: the per-report cap or what is left of the task budget. */
  remaining(): bigint;
  /** True when what is left of the task budget, not the per-report cap, bounds the next price. */
  taskBound(): boolean;
  /** Throws TASK_BUDGET_EXHAUSTED when nothing is left to spend. */
  assertNotExhausted(budget: bigint): void;
}

export function taskBudget(maxPerReport: bigint, maxPerTask: bigint): TaskBudget {
  let spent = 0n;
  const overTask = (amount: bigint) =>
    new BuyerRefused(
      'TASK_BUDGET_EXHAUSTED',
      `paying ${amount} would exceed the task budget (${spent} of ${maxPerTask} spent)`,
    );
  return {
    maxPerReport,
    maxPerTask,
    get spent() {
      return spent;
    },
    assertAffordable(amount) {
      if (amount > maxPerReport)
        throw new BuyerRefused(
          'PRICE_ABOVE_REPORT_BUDGET',
          `the price ${amount} exceeds the per-report cap ${maxPerReport}`,
        );
      if (spent + amount > maxPerTask) throw overTask(amount);
    },
    reserve(amount) {
      if (spent + amount > maxPerTask) throw overTask(amount);
      spent += amount;
    },
    release(amount) {
      spent -= amount;
      if (spent < 0n) spent = 0n;
    },
    remaining() {
      const rest = maxPerTask - spent;
      return rest < maxPerReport ? rest : maxPerReport;
    },
    taskBound: () => maxPerTask - spent < maxPerReport,
    assertNotExhausted(budget) {
      if (budget <= 0n)
        throw new BuyerRefused('TASK_BUDGET_EXHAUSTED', `no budget left (${spent} of ${maxPerTask} spent)`);
    },
  };
}
