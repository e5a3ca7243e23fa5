import { isLeft } from 'fp-ts/lib/Either.js';
import type http from 'node:http';
import { createInterface } from 'node:readline';
import { ComplianceExportRow } from '../../projections/compliance/compliance-row.js';
import { OPERATOR_API, ReplayStreamLine } from '../../src/operator/contract.js';
import { UsageError } from '../../src/operator/usage-error.js';
import { UseCaseAnswer, type RequestOf, type UseCaseName, type UseCaseResult } from '../../src/operator/use-cases.js';
import { OperatorListenerRefused, type OperatorService } from '../operator/context.js';
import { operatorRequest, type OperatorListener } from './operator-listener.js';

// The operator use-cases run inside the running service (src/operator/http/relay.ts) on its open store: the
// CLI sends each structured request and gets its result back, and prints it as a local run would, so
// output and exit codes are the same. Compliance rows stream as NDJSON and the CLI writes the file.

async function text(res: http.IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of res) body += String(chunk);
  return body;
}

async function checked(res: http.IncomingMessage): Promise<http.IncomingMessage> {
  if (res.statusCode === 200) return res;
  const body = await text(res);
  throw new OperatorListenerRefused(
    `the operator listener refused the command (HTTP ${res.statusCode}): ${body.slice(0, 500)}`,
  );
}

async function* rowsOf(res: http.IncomingMessage): AsyncGenerator<ComplianceExportRow> {
  for await (const line of createInterface({ input: res, crlfDelay: Infinity })) {
    if (line === '') continue;
    const row = ComplianceExportRow.decode(JSON.parse(line));
    if (isLeft(row)) throw new Error('the operator listener sent a line that is not a compliance row');
    yield row.right;
  }
  if (!res.complete) throw new Error('the service closed the connection before the export finished');
}

export function relayedService(listener: OperatorListener): OperatorService {
  return {
    async run<U extends UseCaseName>(request: RequestOf<U>): Promise<UseCaseResult<U>> {
      const res = await checked(
        await operatorRequest(listener, {
          method: 'POST',
          path: `${OPERATOR_API}/use-case`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        }),
      );
      const answer = UseCaseAnswer.decode(JSON.parse(await text(res)));
      if (isLeft(answer)) throw new Error('the operator listener sent an answer that is not a use-case answer');
      const a = answer.right;
      if ('usage' in a) throw new UsageError(a.usage);
      if ('failed' in a) throw new Error(a.failed);
      // The service runs this very use-case code (src/operator/use-cases.ts) and sends its result as JSON.
      return a.result as UseCaseResult<U>;
    },
    async complianceRows(range, consume) {
      const query = new URLSearchParams({ from: range.from ?? '', to: range.to ?? '' });
      const res = await checked(
        await operatorRequest(listener, { method: 'GET', path: `${OPERATOR_API}/compliance/rows?${query}` }),
      );
      return consume(rowsOf(res));
    },
    async replay(onProgress) {
      const res = await checked(await operatorRequest(listener, { method: 'POST', path: `${OPERATOR_API}/replay` }));
      for await (const text of createInterface({ input: res, crlfDelay: Infinity })) {
        if (text === '') continue;
        const decoded = ReplayStreamLine.decode(JSON.parse(text));
        if (isLeft(decoded)) throw new Error('the operator listener sent a line that is not a replay line');
        const l = decoded.right;
        if ('progress' in l) onProgress({ position: BigInt(l.progress.position), head: BigInt(l.progress.head) });
        else if ('failed' in l) throw new Error(l.failed);
        // The service runs the replay use-case's own code (src/operator/replay.ts) and sends its result.
        else return l.result as UseCaseResult<'replay'>;
      }
      throw new Error('the service closed the connection before the replay finished');
    },
  };
}
