import Router from '@koa/router';
import * as t from 'io-ts';
import { Refusal } from '../../refusal.js';
import { readJsonBody } from '../json-body.js';
import { decodeOrThrow, strictType } from '../../contract/decode.js';
import { DEFAULT_PARSE_LIMITS } from '../../rsl/parse.js';
import { inspectDocument, type InspectOutcome, type InspectQuestion } from '../../rsl/inspect-document.js';
import { InspectPoolBusy } from '../../rsl/inspect-pool.js';
import { DEFAULT_USER_CLASS, InspectPurpose, NullableGeo, UserClass } from '../../rsl/purposes.js';
import { TokenReading } from '../../rsl/reading.js';
import { checkResourceUrlSyntax } from '../../rsl/resource-url.js';
import { Classification, Decision } from '../../rsl/vocabulary.js';
import { checkedBody } from '../checked-body.js';

// POST /v1/rights/inspect — the free XML inspection path (spec §2.1, §4). It evaluates only the
// RSL XML the caller supplies, never fetches anything, signs nothing, charges nothing, and says
// so in every answer. The resource must pass the §2.2 syntax rule, but not coverage: nothing is
// fetched, so an uncovered origin cannot be abused, and a publisher may check a draft before
// asking for coverage. Only here is the legacy `crawl` purpose accepted (read through `all`).

export const InspectRequest = strictType(
  { resource: t.string, purpose: InspectPurpose, xml: t.string },
  { user_class: UserClass, geo: NullableGeo },
  'InspectRequest',
);
export type InspectRequest = t.TypeOf<typeof InspectRequest>;

export const INSPECTION_NOTICE =
  'Inspection of the XML you supplied, nothing else: the resource was not fetched, nothing was observed or signed, ' +
  'and nothing was charged. ' +
  'This is not a report, not a license, not legal advice and not legal clearance.';

export const InspectResponse = t.type({
  kind: t.literal('inspection'),
  report: t.literal(false),
  legal_clearance: t.literal(false),
  fetched: t.literal(false),
  charge_micro: t.literal('0'),
  notice: t.string,
  resource: t.string,
  purpose: InspectPurpose,
  user_class: UserClass,
  geo: t.union([t.string, t.null]),
  classification: Classification,
  decision: Decision,
  tokens: t.array(TokenReading),
  document: t.type({
    sha256: t.string,
    bytes: t.number,
    parsed: t.boolean,
    conformant: t.boolean,
    failure: t.union([t.type({ code: t.string, message: t.string }), t.null]),
    problems: t.array(
      t.type({
        severity: t.keyof({ error: null, warning: null }),
        code: t.string,
        message: t.string,
        line: t.union([t.number, t.null]),
      }),
    ),
  }),
});
export type InspectResponse = t.TypeOf<typeof InspectResponse>;

export interface InspectDeps {
  /** Largest accepted JSON body; the XML inside is further capped by the parser (512 KiB). */
  bodyLimitBytes?: number;
  /** Where the untrusted document is parsed and evaluated: the service passes its worker pool; default in process. */
  inspect?: (xml: string, question: InspectQuestion) => Promise<InspectOutcome>;
}

export function inspectRouter(deps: InspectDeps = {}): Router {
  const router = new Router();
  const limitBytes = deps.bodyLimitBytes ?? DEFAULT_PARSE_LIMITS.maxBytes + 64 * 1024;

  router.post('/v1/rights/inspect', async (ctx) => {
    const body = decodeOrThrow(InspectRequest, await readJsonBody(ctx, { limitBytes }));
    const resource = checkResourceUrlSyntax(body.resource);
    if (!resource.ok) throw new Refusal(resource.code, resource.message, { field: 'resource' });
    const userClass = body.user_class ?? DEFAULT_USER_CLASS;
    const geo = body.geo ?? null;

    const question: InspectQuestion = { resource: resource.url, purpose: body.purpose, userClass, geo };
    let outcome: InspectOutcome;
    try {
      outcome = deps.inspect ? await deps.inspect(body.xml, question) : inspectDocument(body.xml, question);
    } catch (err) {
      if (err instanceof InspectPoolBusy)
        throw new Refusal('INSPECT_BUSY', 'all inspection workers are busy; retry shortly', {}, 1);
      throw err;
    }
    const { sha256, parse, evaluation } = outcome;

    const answer: InspectResponse = {
      kind: 'inspection',
      report: false,
      legal_clearance: false,
      fetched: false,
      charge_micro: '0',
      notice: INSPECTION_NOTICE,
      resource: resource.url,
      purpose: body.purpose,
      user_class: userClass,
      geo,
      classification: evaluation.classification,
      decision: evaluation.decision,
      tokens: evaluation.tokens.map((e) => ({
        token: e.token,
        classification: e.classification,
        decision: e.decision,
        obligations: e.obligations,
        reasons: e.reasons,
      })),
      document: {
        sha256,
        bytes: Buffer.byteLength(body.xml, 'utf8'),
        parsed: parse.ok,
        conformant: parse.conformant,
        failure: parse.failure,
        problems: parse.problems.map((p) => ({
          severity: p.severity,
          code: p.code,
          message: p.message,
          line: p.line ?? null,
        })),
      },
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.body = checkedBody(InspectResponse, answer); // e.g. never a reading without a classification
  });
  return router;
}
