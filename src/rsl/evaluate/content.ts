import type { Content } from '../parse/model.js';
import type { Question } from '@rights-preflight/wire/rsl/purposes.js';
import { licenseVerdict } from './license.js';
import { merge, type DocumentInput, type Outcome, type Verdict } from './verdict.js';

// The content rule: the licenses of one <content> are alternative offers (rsl.md §6.3): any usage
// prohibition wins, else the least burdensome grant, else "not granted", else silent.

/** Licenses of one content are alternative offers; a usage prohibition in any of them wins. */
export function contentVerdict(content: Content, doc: DocumentInput, q: Question): Verdict {
  const verdicts = content.licenses.map((l) => licenseVerdict(l, content, doc, q));
  const pick = (o: Outcome) => verdicts.filter((v) => v.outcome === o);
  for (const o of ['prohibited'] as const) if (pick(o).length) return merge(o, pick(o));
  for (const o of ['permitted', 'license-required', 'unsupported', 'not-granted', 'terms-only'] as const) {
    // A free grant is the least burdensome offer; keep only the offers of the chosen kind.
    if (pick(o).length) return merge(o, pick(o));
  }
  return { outcome: 'silent', obligations: [], reasons: verdicts.flatMap((v) => v.reasons) };
}
