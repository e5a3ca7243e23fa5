import { fetchObservation as observation } from './discovery-records.js';
import type { DiscoveryLimits, DiscoveryRun, Got } from './discovery-run.js';
import type { Observation } from './reading.js';
import { robotsText } from './robots.js';
import { robotsLicensesOf } from './robots-licenses-kept.js';

// Discovery's robots.txt channel (discovery.ts runs it): what each answer to /robots.txt means, as RFC
// 9309 §2.3.1 says, and the `License` lines of every crawler's reading as associations (robots.ts).

/**
 * robots.txt (RFC 9309 §2.3.1): a 2xx body is the file, read as every crawler could select its
 * `License` lines; a 4xx is "unavailable" (no rules) and a 5xx "unreachable" (complete disallow), and
 * neither body is ever read for anything. Each answer is recorded with its status and digest.
 */
export function readRobots(run: DiscoveryRun, robotsUrl: string, robots: Got, limits: DiscoveryLimits): void {
  const { out, channelFailure } = run;
  const robotsObs = observation('robots', robots.result, robots.cached);
  out.observations.push(robotsObs);
  if (!robots.result.ok) {
    channelFailure('robots', robotsUrl, robots.result.code, robots.result.message);
    return;
  }
  const { status, sha256 } = robots.result;
  if (status >= 300 && status < 400) {
    robotsObs.notes.push('redirect not followed');
    channelFailure(
      'robots',
      robotsUrl,
      'ROBOTS_REDIRECT',
      `robots.txt answered ${status} (to ${robots.result.headers.location ?? '?'}); redirects are not followed`,
    );
  } else if (status >= 500) {
    robotsObs.notes.push(`${status}: unreachable (RFC 9309 §2.3.1.4); the body is not a robots.txt and was not read`);
    channelFailure(
      'robots',
      robotsUrl,
      'ROBOTS_UNREACHABLE',
      `robots.txt answered ${status}: RFC 9309 §2.3.1.4 "the crawler MUST assume complete disallow"; ` +
        'its body was not read',
    );
  } else if (status >= 400) {
    // RFC 9309 §2.3.1.3: a 4xx means the file is unavailable, so there are no rules; an error page is
    // not a robots.txt, and a License line in it is no association (docs/decisions.md, "Robots.txt read
    // as the standards say").
    robotsObs.notes.push(`${status}: unavailable (RFC 9309 §2.3.1.3), no rules; the body was not read`);
    out.reasons.push({
      rule: 'robots-unavailable',
      outcome: 'silent',
      channel: 'robots',
      document_url: robotsUrl,
      document_sha256: sha256,
      content_url: null,
      content_index: null,
      license_index: null,
      detail:
        `robots.txt answered ${status}: "unavailable" (RFC 9309 §2.3.1.3), no rules; its body is not a ` +
        'robots.txt and no License, Content-Signal or Content-Usage line was read from it',
    });
  } else if (status >= 200 && status < 300) {
    readRobotsRules(run, robotsUrl, robots.result, robotsObs, limits);
  }
}

/** A 2xx robots.txt: every crawler's `License` lines are associations; what cannot be read caps the answer. */
function readRobotsRules(
  run: DiscoveryRun,
  robotsUrl: string,
  response: { body: Buffer; sha256: string; truncated?: boolean },
  robotsObs: Observation,
  limits: DiscoveryLimits,
): void {
  const { out, associations, channelFailure } = run;
  const { body } = response;
  const truncated = response.truncated === true;
  const text = robotsText(body, truncated);
  if (text.signature || text.extraMarks)
    robotsObs.notes.push(
      `${text.encoding} byte order mark` +
        `${text.extraMarks ? `s (${text.signature ? 1 + text.extraMarks : text.extraMarks})` : ''} ` +
        'dropped as a signature before the first line (WHATWG Encoding, decode)',
    );
  if (truncated) {
    robotsObs.notes.push(
      `robots.txt is longer than the ${body.length} bytes read ` +
        `(parse limit ${limits.robotsMaxBytes}, RFC 9309 §2.5): ` +
        'the lines complete within them were parsed; what follows was not read',
    );
    // The unread part may withdraw any permission the read part gives: it is an association we
    // could not read (evaluate.ts: no allow is reported beside a failure).
    channelFailure(
      'robots',
      robotsUrl,
      'ROBOTS_BEYOND_PARSE_LIMIT',
      `robots.txt goes on beyond the ${body.length} bytes read (RFC 9309 §2.5 parse limit ` +
        `${limits.robotsMaxBytes}); a License line past them was not read, so nothing read is more permissive ` +
        'than UNKNOWN',
    );
  }
  const r = robotsLicensesOf(response, robotsUrl, () => text.text);
  if (text.extraMarks && /^[ \t]*license[ \t]*:/i.test(text.text)) {
    // A second mark is U+FEFF to a strict reader, whose first line is then no rule; read both ways,
    // the line is read and nothing it grants is relied on.
    channelFailure(
      'robots',
      robotsUrl,
      'ROBOTS_FIRST_LINE_AMBIGUOUS',
      'the first line, a License line, follows more than one byte order mark: a strict RFC 9309 reader does ' +
        'not read it, so what it grants is not relied on',
    );
  }
  out.robotsReadings = r.readings;
  r.readings.forEach((reading, i) => {
    for (const { value } of reading.licenses)
      associations.push({ channel: 'robots', value, base: robotsUrl, readings: [i] });
  });
  if (r.ignoredGlobal.length)
    out.diagnostics.push(
      `robots.txt: global License lines not selected by the * group, which has its own: ${r.ignoredGlobal.join(' ')}`,
    );
  for (const g of r.otherGroups)
    out.diagnostics.push(
      `robots.txt: group for ${g.userAgents.join(', ')} carries other License lines (read too): ` +
        g.licenses.join(' '),
    );
  for (const v of r.resolvedRelative)
    out.diagnostics.push(`robots.txt: relative License value ${v} resolved against robots.txt (should be absolute)`);
}
