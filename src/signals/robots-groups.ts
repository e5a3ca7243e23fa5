import type { EvaluationBudget } from '../matching/evaluation-budget.js';
import type { PatternCache } from '../matching/pattern.js';
import { DocumentMemo, matchPath } from './signal-work.js';

// robots.txt lines for the signal readers (Content-Usage, Content-Signal), grouped as RFC 9309 §2.1
// groups them and as src/rsl/robots.ts does for License lines: a group starts at a run of
// `User-agent` lines and lasts until the next `User-agent` line that follows a rule; lines before the
// first group are global. We read as the `*` agent: every `*` group, merged (RFC 9309 §2.2.1:
// matching groups are combined), and — unlike License lines — the global lines as well, as a
// statement of their own: a publisher who wrote a preference outside any group meant it for
// everyone, and reading it can only add a statement, never remove one. Other agents' groups are
// not read. Pure.

export interface RobotsLine {
  /** 1-based line number in the file. */
  line: number;
  /** The key, lower-cased (`content-usage`). */
  key: string;
  /** The value: after the colon, up to a `#`, blank space around it removed. */
  value: string;
  /** The line as written (for the statement), without its end of line. */
  raw: string;
}

interface RobotsGroups {
  global: RobotsLine[];
  /** The lines of every group that names `*`, in file order. */
  star: RobotsLine[];
}

// Every resource of an origin reads the same robots.txt: it is grouped once per text and set of keys,
// and its patterns are compiled once (signal-work.ts), not per resource.
const memos = new Map<string, DocumentMemo<RobotsGroups>>();

/** robotsGroups, kept with the document's compiled patterns. Callers must not change what it returns. */
export function robotsDocument(
  text: string,
  keys: readonly string[],
): { groups: RobotsGroups; patterns: PatternCache } {
  const byKeys = keys.join(',');
  let memo = memos.get(byKeys);
  if (!memo) {
    memo = new DocumentMemo<RobotsGroups>(8);
    memos.set(byKeys, memo);
  }
  const e = memo.get(text, () => groupLines(text, keys));
  return { groups: e.value, patterns: e.patterns };
}

/** Group the lines with any of `keys` (lower-case), plus the `*` groups' allow/disallow lines (kept per
 *  document text, see robotsDocument: callers must not change what it returns). */
export function robotsGroups(text: string, keys: readonly string[]): RobotsGroups {
  return robotsDocument(text, keys).groups;
}

function groupLines(text: string, keys: readonly string[]): RobotsGroups {
  const wanted = new Set([...keys, 'allow', 'disallow']);
  const out: RobotsGroups = { global: [], star: [] };
  let current: { agents: string[]; lines: RobotsLine[] } | null = null;
  const groups: Array<{ agents: string[]; lines: RobotsLine[] }> = [];
  let lastWasAgent = false;
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const m = /^[ \t]*([A-Za-z-]+)[ \t]*:[ \t]*([^#]*)/.exec(raw);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], lines: [] };
        groups.push(current);
      }
      current.agents.push(m[2]!.trim().toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!wanted.has(key)) continue;
    const entry = { line: i + 1, key, value: m[2]!.trim(), raw: raw.trim() };
    if (current) current.lines.push(entry);
    else if (key !== 'allow' && key !== 'disallow') out.global.push(entry);
  }
  for (const g of groups) if (g.agents.includes('*')) out.star.push(...g.lines);
  out.star.sort((a, b) => a.line - b.line);
  return out;
}

/**
 * Whether the `*` agent may crawl the resource (RFC 9309 §2.2.2): the longest matching Allow or
 * Disallow wins, Allow on a tie, and no match allows. aipref-attach §3.1: preferences apply only to
 * paths that can be crawled.
 */
export function crawlAllowed(
  star: readonly RobotsLine[],
  resource: string,
  budget?: EvaluationBudget,
  patterns?: PatternCache,
): { allowed: boolean; by: RobotsLine | null } {
  let best: { specificity: number; allow: boolean; by: RobotsLine } | null = null;
  for (const l of star) {
    if (l.key !== 'allow' && l.key !== 'disallow') continue;
    // An empty Disallow allows everything (RFC 9309 §2.2.2); an empty Allow matches nothing.
    if (l.value === '') continue;
    const m = matchPath(l.value, resource, budget, patterns);
    if (!m.matches) continue;
    const allow = l.key === 'allow';
    if (!best || m.specificity > best.specificity || (m.specificity === best.specificity && allow)) {
      best = { specificity: m.specificity, allow, by: l };
    }
  }
  return best ? { allowed: best.allow, by: best.by } : { allowed: true, by: null };
}
