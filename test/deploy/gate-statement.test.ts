import test from 'ava';
import { generatePrivateKey } from 'viem/accounts';
import { SIWX_STATEMENT } from '@rights-preflight/wire/ingestion-gate/siwx-challenge.js';
import { post } from '../support/post.js';
import { ARTICLE } from '../support/publishers.js';
import { gateHeaders, newKey } from '../surfaces/support/gate-buyer.js';
import { useFastWorld } from '../support/fast-world.js';

// A client writer must not have to guess the sign-in statement: the 428 (no proof) and every 401 (a
// wrong proof) carry it in details.statement, and the served OpenAPI's SiwxProof schema has it as const.

const w = useFastWorld();

test('428 SIWX_REQUIRED and 401 SIWX_INVALID give the statement, the const of SiwxProof.statement', async (t) => {
  const gate = `${w.url}/v1/rights/ingestion-gate`;
  const body = { resources: [ARTICLE(1)], purpose: 'rag-ingestion', max_total_micro: '60000' };
  const headersForNewKey = () =>
    gateHeaders({
      url: w.url,
      body,
      key: newKey(),
      payerKey: generatePrivateKey(),
      coveredOrigins: w.origins.origins,
    });
  const headers = await headersForNewKey();
  const { 'sign-in-with-x': proof, ...noProof } = headers;
  const missing = await post(gate, body, noProof);
  t.is(missing.status, 428);
  t.is(missing.body.error.code, 'SIWX_REQUIRED');
  t.is(missing.body.error.details.statement, SIWX_STATEMENT);
  // The proof of another request (another key): nonce_mismatch, 401.
  const other = await headersForNewKey();
  const wrong = await post(gate, body, { ...headers, 'sign-in-with-x': other['sign-in-with-x']! });
  t.is(wrong.status, 401);
  t.is(wrong.body.error.details.reason, 'nonce_mismatch');
  t.is(wrong.body.error.details.statement, SIWX_STATEMENT);
  t.truthy(proof);

  const openapi = (await (await fetch(`${w.url}/openapi.json`)).json()) as any;
  const siwx = openapi.components.schemas.SiwxProof;
  const statement = [siwx, ...(siwx.allOf ?? [])].map((p: any) => p.properties?.statement).find(Boolean);
  t.is(statement.const, SIWX_STATEMENT);
  t.is(openapi.paths['/v1/rights/ingestion-gate'].post.operationId, 'ingestionGate');
});
