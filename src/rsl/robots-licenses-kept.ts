import { readRobotsLicenses, type RobotsLicenses } from './robots.js';

// robots.txt's License lines as read from one cached response: every quote on an origin reads the same
// robots.txt while it is fresh, and a file at the parse limit (500 KiB, tens of thousands of lines) costs
// tens of milliseconds of event loop to scan. Kept beside the response object, so it dies with it.

const kept = new WeakMap<object, { robotsUrl: string; licenses: RobotsLicenses }>();

/** readRobotsLicenses(text(), robotsUrl), computed once per `response` (the fetch cache's object). */
export function robotsLicensesOf(response: object, robotsUrl: string, text: () => string): RobotsLicenses {
  const known = kept.get(response);
  if (known && known.robotsUrl === robotsUrl) return known.licenses;
  const licenses = readRobotsLicenses(text(), robotsUrl);
  kept.set(response, { robotsUrl, licenses });
  return licenses;
}
