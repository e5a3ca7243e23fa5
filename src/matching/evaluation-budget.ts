// The work one request's evaluation may do, counted in octets the pattern matcher reads. Pure.
//
// Counted, not timed: the same documents and question always give the same reading, so a signed report
// can be re-derived from its evidence, and a slow machine does not turn a PERMITTED into an UNKNOWN.
// Matching is linear (wildcard-match.ts), so the count is proportional to CPU time; the default was
// measured at a few milliseconds of CPU (docs/decisions.md "Pattern matching"). Past it, the
// evaluation stops and answers UNKNOWN with the rule `evaluation-budget-exceeded`: never a stall,
// never a grant.

/** Octets the matcher may read for one resource's reading (every purpose and token together). */
export const DEFAULT_EVALUATION_UNITS = 1_000_000;

export class EvaluationBudgetExceeded extends Error {
  constructor(readonly units: number) {
    super(`the evaluation needed more than ${units} units of matching work`);
  }
}

export class EvaluationBudget {
  #spent = 0;
  #memo = new WeakMap<object, { key: string; value: unknown }>();
  constructor(readonly units: number = DEFAULT_EVALUATION_UNITS) {}

  /** Work already paid for in this budget is not paid again (a scope matched for one token serves all). */
  memo<T>(subject: object, key: string, compute: () => T): T {
    const hit = this.#memo.get(subject);
    if (hit?.key === key) return hit.value as T;
    const value = compute();
    this.#memo.set(subject, { key, value });
    return value;
  }

  get exhausted(): boolean {
    return this.#spent > this.units;
  }

  /** Charge work about to be done; throws EvaluationBudgetExceeded once the budget is gone. */
  spend(units: number): void {
    this.#spent += units;
    if (this.#spent > this.units) throw new EvaluationBudgetExceeded(this.units);
  }
}
