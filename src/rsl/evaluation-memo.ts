import type { CrawlerAgents, PurposeEvaluation } from './evaluate/evaluate.js';
import type { DocumentInput } from './evaluate/verdict.js';

// A resource's evaluations kept for the next quote that asks the same question of the same documents
// (docs/decisions.md "A quote's own CPU"). Evaluation is pure and counted, not timed
// (matching/evaluation-budget.ts): the same inputs, crawler readings and questions, asked together of a
// fresh budget, always give the same evaluations and charge the same work, so a kept answer is the
// answer, and what a request is charged still never depends on what earlier requests asked. The key names
// every input the evaluator reads; a parse by its identity (discovery's parse cache hands the same object
// for the same bytes, parse-cache.ts), so changed bytes, a failure or another crawler reading is another
// key. Kept answers are frozen: shared by later readings, they can never be changed through one of them.
//
// Bounded by what is already held: the answers are kept beside the first parsed document of their inputs,
// weakly, so they are dropped with it when the parse cache lets it go (an answer may hold text of its
// document), at most `perDocument` questions each, least recently used first out; answers from no parsed
// document at all (every channel failed) are at most `perDocument` more.
export interface EvaluationQuestion {
  resource: string;
  purposes: readonly string[];
  userClass: string;
  geo: string | null;
}

export interface EvaluationMemo {
  /** The evaluations of `question` against `inputs`: kept ones, or `evaluate()`'s, then kept. */
  evaluations(
    inputs: readonly DocumentInput[],
    crawlers: readonly CrawlerAgents[],
    question: EvaluationQuestion,
    evaluate: () => PurposeEvaluation[],
  ): readonly PurposeEvaluation[];
  /** Evaluations computed so far (not answered from memory): counted work for tests and profiles. */
  readonly computed: number;
}

export function createEvaluationMemo(perDocument: number): EvaluationMemo {
  const byDocument = new WeakMap<object, Map<string, readonly PurposeEvaluation[]>>();
  const withoutDocument = new Map<string, readonly PurposeEvaluation[]>();
  const parseIds = new WeakMap<object, number>();
  let nextParseId = 0;
  let computed = 0;
  const parseId = (parse: object): number => {
    let id = parseIds.get(parse);
    if (id === undefined) {
      id = nextParseId++;
      parseIds.set(parse, id);
    }
    return id;
  };
  return {
    get computed() {
      return computed;
    },
    evaluations(inputs, crawlers, question, evaluate) {
      const key = JSON.stringify([
        question.resource,
        question.purposes,
        question.userClass,
        question.geo,
        crawlers.map((c) => c.agents),
        inputs.map((i) => [
          i.channel,
          i.url,
          i.sha256,
          i.parse === null ? null : parseId(i.parse),
          i.failure?.code ?? null,
          i.failure?.message ?? null,
          i.robotsReadings ?? null,
        ]),
      ]);
      const anchor = inputs.find((i) => i.parse !== null)?.parse;
      let kept = anchor ? byDocument.get(anchor) : withoutDocument;
      const hit = kept?.get(key);
      if (kept && hit) {
        kept.delete(key); // re-inserted: Map order is the recency order
        kept.set(key, hit);
        return hit;
      }
      const answer = deepFreeze(evaluate());
      computed++;
      if (!kept) {
        kept = new Map();
        byDocument.set(anchor!, kept);
      }
      kept.set(key, answer);
      if (kept.size > perDocument) kept.delete(kept.keys().next().value!);
      return answer;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
