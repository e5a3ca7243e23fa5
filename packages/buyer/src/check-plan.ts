import type { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import { canonicalResourceUrl } from '@rights-preflight/wire/rsl/resource-url.js';
import { line } from './check-lines.js';

// What a bulk check (./check.ts) still has to do with its URLs, decided without a request: URLs that are
// not https URLs the service could take and those on origins it does not cover (capabilities `coverage`)
// are answered here, free; the covered ones are grouped by origin into gate calls of up to four unique
// resources (URLs spelled differently but canonically equal share a resource and its report).

export interface CallEntry {
  url: string;
  resource: string;
}

export interface CheckPlan {
  /** Lines answered without a request. */
  local: ManifestLine[];
  calls: CallEntry[][];
}

const GATE_MAX_RESOURCES = 4;

function safeUrl(u: string): string | null {
  try {
    return new URL(u).href;
  } catch {
    return null;
  }
}

export function planCheck(urls: readonly string[], coveredOrigins: readonly string[]): CheckPlan {
  const byOrigin = new Map<string, CallEntry[]>();
  const local: ManifestLine[] = [];
  for (const url of urls) {
    const checked = canonicalResourceUrl(url, coveredOrigins);
    if (!checked.ok) {
      const uncovered = checked.code === 'RESOURCE_NOT_COVERED';
      const reason = { code: uncovered ? 'ORIGIN_NOT_COVERED' : 'INVALID_URL', message: checked.message };
      local.push(line(url, { resource: uncovered ? safeUrl(url) : null, reason }));
      continue;
    }
    byOrigin.set(checked.origin, [...(byOrigin.get(checked.origin) ?? []), { url, resource: checked.url }]);
  }
  const calls: CallEntry[][] = [];
  for (const entries of byOrigin.values()) {
    let call: CallEntry[] = [];
    for (const e of entries) {
      const unique = new Set(call.map((c) => c.resource));
      if (!unique.has(e.resource) && unique.size === GATE_MAX_RESOURCES) {
        calls.push(call);
        call = [];
      }
      call.push(e);
    }
    if (call.length) calls.push(call);
  }
  return { local, calls };
}
