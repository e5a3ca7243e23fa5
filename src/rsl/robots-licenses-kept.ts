import { readRobotsLicenses, type RobotsLicenses } from './robots.js';

// robots.txt's License lines, read once per robots.txt: every quote on an origin reads the same file, and a
// file at the parse limit (500 KiB, tens of thousands of lines) costs milliseconds of event loop to scan,
// tens on a loaded machine. Kept by URL and the digest of the bytes received, so a refetch of the same file
// (freshness 0, a revalidation) is not scanned again; the last few files are kept.

const MAX_KEPT = 16;
const kept = new Map<string, RobotsLicenses>();

/** readRobotsLicenses(text(), robotsUrl) for the response whose bytes have digest `sha256`. */
export function robotsLicensesOf(
  response: { sha256: string; truncated?: boolean },
  robotsUrl: string,
  text: () => string,
): RobotsLicenses {
  const key = `${robotsUrl} ${response.sha256} ${response.truncated === true}`;
  let licenses = kept.get(key);
  if (licenses) kept.delete(key);
  else licenses = readRobotsLicenses(text(), robotsUrl);
  kept.set(key, licenses);
  while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return licenses;
}
