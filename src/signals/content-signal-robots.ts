import type { SignalObservation } from '@rights-preflight/wire/signals/signal-observation.js';
import { observation, silentObservation, type TokenVerdicts } from './observation.js';
import { robotsGroups } from './robots-groups.js';
import type { FetchedText } from './signal-sources.js';

// `Content-Signal:` lines in robots.txt (the Content Signals Policy, contentsignals.org, CC0). Pure.
//
// A line is a comma-separated list of `signal=yes|no` for `search`, `ai-input` and `ai-train`, the
// same definitions as RSL's usage tokens (docs/reference/rsl.md §3.4.1). "If the website operator does
// not include a content signal for a corresponding use, the website operator neither grants nor
// restricts permission": an absent signal is `silent`. The policy has no `ai-index` signal; a refusal
// of `ai-input` (retrieval augmented generation, grounding) is read as refusing `ai-index` too, since
// an AI retrieval index exists to feed a model input; a `yes` allows `ai-input` alone. Every line of the
// `*` groups and the global lines is an observation (robots-groups.ts); the policy defines no paths.

const POLICY = 'Content Signals Policy';
const SIGNAL = /^(search|ai-input|ai-train)[ \t]*=[ \t]*(yes|no)$/i;

export function readContentSignalRobots(robots: FetchedText): SignalObservation[] {
  const groups = robotsGroups(robots.text, ['content-signal']);
  const out: SignalObservation[] = [];
  for (const line of [...groups.star, ...groups.global]) {
    if (line.key !== 'content-signal') continue;
    const source = {
      standard: 'content-signals',
      channel: 'robots',
      url: robots.url,
      sha256: robots.sha256,
      statement: line.raw,
    } as const;
    const verdicts: TokenVerdicts = {};
    const unknown: string[] = [];
    for (const part of line.value.split(',')) {
      const m = SIGNAL.exec(part.trim());
      if (!m) {
        if (part.trim() !== '') unknown.push(part.trim());
        continue;
      }
      const signal = m[1]!.toLowerCase() as 'search' | 'ai-input' | 'ai-train';
      const no = m[2]!.toLowerCase() === 'no';
      const rule = `${signal}=${no ? 'no' : 'yes'} (${POLICY})`;
      verdicts[signal] = { verdict: no ? 'reserved' : 'allowed', rule };
      if (signal === 'ai-input' && no)
        verdicts['ai-index'] = { verdict: 'reserved', rule: `${rule}: an AI retrieval index feeds model input` };
    }
    const ignored = unknown.length ? `; ignored: ${unknown.join(', ')}` : '';
    if (Object.keys(verdicts).length === 0) {
      out.push(
        silentObservation(source, `line ${line.line}: no search, ai-input or ai-train signal with yes or no${ignored}`),
      );
      continue;
    }
    out.push(observation(source, verdicts, `no content signal for this use (${POLICY})${ignored}`));
  }
  return out;
}
