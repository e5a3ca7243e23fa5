// What a wrong or missing setting looks like, and how start-up reports them all at once.

/** One wrong or missing setting. */
export interface ConfigProblem {
  variable: string;
  problem: string;
}

/**
 * Every problem of a configuration at once (docs/decisions.md, "Configuration errors at once"):
 * `variable` and `problem` are the first one's, the message lists them all, one line each.
 */
export class ConfigError extends Error {
  readonly problems: readonly ConfigProblem[];
  readonly variable: string;
  readonly problem: string;
  constructor(variable: string | readonly ConfigProblem[], problem?: string) {
    const problems = typeof variable === 'string' ? [{ variable, problem: problem ?? 'is invalid' }] : variable;
    super(problems.map((p) => `configuration: ${p.variable} ${p.problem}`).join('\n'));
    this.problems = problems;
    this.variable = problems[0]?.variable ?? 'environment';
    this.problem = problems[0]?.problem ?? 'is invalid';
  }
}
