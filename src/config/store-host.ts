import { lookup } from 'node:dns/promises';
import type { ConfigProblem } from './config-error.js';

// What can be known of a PostgreSQL store URL before connecting (docs/decisions.md, "Start-up checks
// before anything starts"): the example's placeholder password, and a host name that does not exist.
// A host that exists but does not answer yet is not a setting's fault (the database may be starting),
// so only a name the resolver denies is reported; a resolver that does not answer in time reports nothing.

const PLACEHOLDER_PASSWORD = 'CHANGE_ME';
const LOOKUP_MS = 2_000;

/** How a host name is resolved: the system's resolver, or a test's. */
type HostLookup = (host: string) => Promise<unknown>;

export async function storeUrlProblems(
  variable: string,
  url: string | undefined,
  resolve: HostLookup = lookup,
): Promise<ConfigProblem[]> {
  if (!url || !/^postgres(ql)?:/i.test(url)) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ variable, problem: 'is not a URL (postgres://user:password@host:5432/database)' }];
  }
  const problems: ConfigProblem[] = [];
  if (decodeURIComponent(parsed.password) === PLACEHOLDER_PASSWORD)
    problems.push({ variable, problem: `still holds the example's password ${PLACEHOLDER_PASSWORD}` });
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const denied = host ? await hostNotFound(host, resolve) : undefined;
  if (denied) problems.push({ variable, problem: `names host ${host}, which ${denied}` });
  return problems;
}

async function hostNotFound(host: string, resolve: HostLookup): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), LOOKUP_MS);
  });
  const asked = resolve(host).then(
    () => undefined,
    (err: NodeJS.ErrnoException) => (err.code === 'ENOTFOUND' ? 'the resolver does not know (ENOTFOUND)' : undefined),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    clearTimeout(timer);
  }
}
