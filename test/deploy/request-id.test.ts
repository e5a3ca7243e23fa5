import test from 'ava';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/runtime/log.js';
import { listen } from '../support/listen.js';

// X-Request-Id: a valid incoming id (1–128 of [A-Za-z0-9._-]) is used for the request, echoed and
// logged; any other value is replaced by a fresh UUID, so a header cannot inject text into the logs.

// A bare app (test/README.md, Worlds): the HTTP shell (src/http/app.ts) itself, with a route that throws,
// which the composed service does not have.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test(
  'a valid X-Request-Id is used and echoed (also in the log and a 500 answer); ' + 'an invalid one is replaced',
  async (t) => {
    let logged = '';
    const log = createLogger(
      'info',
      new Writable({
        write(c, _e, cb) {
          logged += c.toString('utf8');
          cb();
        },
      }),
    );
    const router = new Router();
    router.get('/boom', () => {
      throw new Error('unexpected');
    });
    const server = await listen(createApp({ log, ready: async () => true, routers: [router] }));
    t.teardown(server.close);
    const url = server.base;
    const idOf = async (path: string, id?: string) =>
      (await fetch(`${url}${path}`, id === undefined ? {} : { headers: { 'X-Request-Id': id } })).headers.get(
        'x-request-id',
      );

    const mine = 'buyer-7.trace_0001';
    t.is(await idOf('/healthz', mine), mine);
    t.true(logged.includes(`"requestId":"${mine}"`));
    const longest = 'a'.repeat(128);
    t.is(await idOf('/healthz', longest), longest);
    const boom = await fetch(`${url}/boom`, { headers: { 'X-Request-Id': mine } });
    t.is(boom.status, 500);
    t.is(((await boom.json()) as { error: { details: { request_id: string } } }).error.details.request_id, mine);

    for (const bad of ['a'.repeat(129), 'has space', 'semi;colon', 'ünïcode', '"quoted"', '']) {
      const got = await idOf('/healthz', bad);
      t.regex(got ?? '', UUID, JSON.stringify(bad));
    }
    t.regex((await idOf('/healthz')) ?? '', UUID, 'none sent: generated');
  },
);
