// robots.txt `License:` lines (rsl.md §3.1) with RFC 9309 grouping. Pure.
//
// Grouping is strict RFC 9309: a group starts at a run of `User-agent` lines and lasts until the
// next `User-agent` line that follows a rule, or the end of the file; lines before the first
// group are global. Blank lines and `Sitemap` lines do not end a group (unlike commonmeasure's
// heuristic). A crawler selects its group's `License` lines, or the global lines when its group has
// none (§4.4.3, the 2026-01-16 erratum scoping a group's lines to the crawlers that select it). The
// service does not know which crawler will ingest the page, so it reads the file as every crawler
// could: one reading per distinct set of lines (`readings`), each weighed by the evaluator
// (docs/decisions.md, "Robots.txt read as the standards say").

import { decodeFetchedText, type FetchedTextDecoded } from './fetched-text.js';

export interface RobotsLicenses {
  /** The `*` reading's absolute https URLs to fetch, in file order, deduplicated. */
  candidates: string[];
  selectedFrom: 'star-group' | 'global' | 'none';
  /** Global lines not used by the `*` reading because the `*` group has its own (§4.4.3). */
  ignoredGlobal: string[];
  /** Other agents' groups whose License lines differ from the `*` reading's. */
  otherGroups: Array<{ userAgents: string[]; licenses: string[] }>;
  /**
   * Every set of License lines some crawler would select (RSL §4.4.2–4.4.3 with the 2026-01-16
   * erratum): one per distinct set, naming the crawlers that select it. A report does not know which
   * crawler will ingest the page, so discovery fetches and the evaluator weighs every one of them.
   */
  readings: CrawlerReading[];
  /** Lines whose value could not be used (not https, not a URL), in any reading. */
  rejected: Array<{ line: number; value: string; reason: string; agents: string[] }>;
  /** Relative values resolved against the robots.txt URL (a lenient reading, flagged). */
  resolvedRelative: string[];
}

export interface CrawlerReading {
  /**
   * User-agent product tokens (lower-case) of the crawlers that select these lines; `*` stands for
   * every crawler no group names (the `*` group, or no group at all when there is none: RFC 9309 §2.2.1).
   */
  agents: string[];
  /** Whether the lines are those crawlers' group's own, or the global lines (the group has none). */
  from: 'group' | 'global';
  /** The License values, in file order, with their line numbers. */
  licenses: Array<{ line: number; value: string }>;
}

interface Group {
  userAgents: string[];
  licenses: Array<{ line: number; value: string }>;
}

/** The lines each crawler selects (RFC 9309 §2.2.1: groups naming the same agent are combined). */
function crawlerReadings(groups: Group[], global: Group['licenses']): CrawlerReading[] {
  const byAgent = new Map<string, Group['licenses']>();
  for (const g of groups)
    for (const agent of new Set(g.userAgents)) byAgent.set(agent, [...(byAgent.get(agent) ?? []), ...g.licenses]);
  // A crawler no group names obeys the `*` group; with none, no group applies and the global lines do.
  if (!byAgent.has('*')) byAgent.set('*', []);
  const bySet = new Map<string, CrawlerReading>();
  for (const [agent, own] of byAgent) {
    const lines = own.length ? [...own].sort((a, b) => a.line - b.line) : global;
    const key = JSON.stringify([...new Set(lines.map((l) => l.value))].sort());
    const known = bySet.get(key);
    if (known) known.agents.push(agent);
    else bySet.set(key, { agents: [agent], from: own.length ? 'group' : 'global', licenses: lines });
  }
  // The `*` reading first, then in the order the agents are first named.
  return [...bySet.values()].sort((a, b) => Number(b.agents.includes('*')) - Number(a.agents.includes('*')));
}

export function readRobotsLicenses(text: string, robotsUrl: string): RobotsLicenses {
  const global: Array<{ line: number; value: string }> = [];
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) return;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { userAgents: [], licenses: [] };
        groups.push(current);
      }
      current.userAgents.push(value.toLowerCase());
      lastWasAgent = true;
      return;
    }
    lastWasAgent = false;
    if (key === 'license') (current ? current.licenses : global).push({ line: i + 1, value });
  });

  const starLines = groups.filter((g) => g.userAgents.includes('*')).flatMap((g) => g.licenses);
  const selected = starLines.length ? starLines : global;
  const readings = crawlerReadings(groups, global);
  const out: RobotsLicenses = {
    candidates: [],
    selectedFrom: starLines.length ? 'star-group' : global.length ? 'global' : 'none',
    ignoredGlobal: starLines.length ? global.map((g) => g.value) : [],
    otherGroups: [],
    readings,
    rejected: [],
    resolvedRelative: [],
  };
  for (const { value } of selected) {
    const url = resolveLicenseUrl(value, robotsUrl);
    if (url.ok && !out.candidates.includes(url.href)) out.candidates.push(url.href);
  }
  const rejectedAt = new Map<number, RobotsLicenses['rejected'][number]>();
  for (const r of readings) {
    for (const { line, value } of r.licenses) {
      const url = resolveLicenseUrl(value, robotsUrl);
      if (url.ok) {
        if (url.relative && !out.resolvedRelative.includes(value)) out.resolvedRelative.push(value);
        continue;
      }
      const known = rejectedAt.get(line);
      if (known) known.agents.push(...r.agents);
      else rejectedAt.set(line, { line, value, reason: url.reason, agents: [...r.agents] });
    }
  }
  out.rejected = [...rejectedAt.values()].sort((a, b) => a.line - b.line);
  const selectedValues = new Set(selected.map((s) => s.value));
  for (const g of groups) {
    if (g.userAgents.includes('*') || g.licenses.length === 0) continue;
    const values = g.licenses.map((l) => l.value);
    if (values.length !== selectedValues.size || values.some((v) => !selectedValues.has(v))) {
      out.otherGroups.push({ userAgents: g.userAgents, licenses: values });
    }
  }
  return out;
}

/** Resolve an association target (robots value, Link or href). Only https URLs are usable. */
export function resolveLicenseUrl(
  value: string,
  base: string,
): { ok: true; href: string; relative: boolean } | { ok: false; reason: string } {
  if (value === '') return { ok: false, reason: 'empty value' };
  const relative = !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value);
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: `scheme ${url.protocol} is not https` };
  url.hash = '';
  return { ok: true, href: url.href, relative };
}

/**
 * RFC 9309 §2.5: "The parsing limit MUST be at least 500 kibibytes". It is a floor: the service
 * parses every line that starts within it, reading up to ROBOTS_LINE_ALLOWANCE_BYTES further to end
 * the line that crosses it.
 */
export const ROBOTS_PARSE_LIMIT_BYTES = 500 * 1024;
/** How far past the parse limit robots.txt is read so the line crossing it is parsed whole. */
export const ROBOTS_LINE_ALLOWANCE_BYTES = 8 * 1024;

/** The bytes of robots.txt read for a parse limit: the limit and the allowance for its last line. */
export const robotsReadBytes = (parseLimitBytes: number) => parseLimitBytes + ROBOTS_LINE_ALLOWANCE_BYTES;

/**
 * The text of robots.txt to parse, decoded as fetched-text.ts decodes (a byte order mark is a
 * signature, never part of the first line). When the body was cut, its last line is incomplete (a
 * `License:` URL cut short would name another document), so it is dropped: only lines that ended
 * inside what was read are parsed, and what follows is unread (discovery caps every answer that rests
 * on it at UNKNOWN).
 */
export function robotsText(body: Uint8Array, truncated: boolean): FetchedTextDecoded {
  const decoded = decodeFetchedText(body);
  if (!truncated) return decoded;
  const lastBreak = Math.max(decoded.text.lastIndexOf('\n'), decoded.text.lastIndexOf('\r'));
  return { ...decoded, text: decoded.text.slice(0, lastBreak + 1) };
}
