import type { ReportReason } from '@rights-preflight/wire/contract/common.js';
import type { ReportPurposeReading } from './report-reading.js';
import { canonicalJson } from '@rights-preflight/wire/evidence/canonical-json.js';

// The `reasons` of one report resource: every explanation step of the purpose's tokens, each once, in
// the evaluator's order. Several tokens of one purpose (rag-ingestion reads ai-input and search) often
// cite the same scope and rule; the report names it once. Shared by every SKU's drafter.

export function reportReasons(purpose: ReportPurposeReading): ReportReason[] {
  const seen = new Set<string>();
  const out: ReportReason[] = [];
  for (const token of purpose.tokens) {
    for (const reason of token.reasons) {
      const key = canonicalJson(reason);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(reason);
    }
  }
  return out;
}
