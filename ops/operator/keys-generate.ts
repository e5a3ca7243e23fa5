import { randomBytes } from 'node:crypto';
import { evidenceKeyFromSeed } from '../../src/evidence/keys.js';
import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';

// `keys generate`: three fresh 32-byte secrets for a production deployment (NODE_ENV=production never
// generates them), as environment lines to put into the secret store, plus the evidence public key the
// seed yields (what buyers pin). It reads and writes nothing: the values exist only in this output.
export async function keysGenerate(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  onlyFlags(args, ['json']);
  if (args.positionals.length > 1) throw new UsageError('keys generate takes no arguments');
  const secrets = { EVIDENCE_KEY: randomBytes(32), CHECKPOINT_KEY: randomBytes(32), CLAIM_SECRET: randomBytes(32) };
  const evidence = evidenceKeyFromSeed(new Uint8Array(secrets.EVIDENCE_KEY)).info;
  const hex = Object.fromEntries(Object.entries(secrets).map(([name, bytes]) => [name, bytes.toString('hex')]));
  if (args.flags.has('json')) {
    ctx.out(JSON.stringify({ ...hex, evidence_public_key: evidence.public_key, evidence_key_id: evidence.key_id }));
    return EXIT.ok;
  }
  ctx.out('# New production secrets: store them in your secret manager, never in the repository.');
  ctx.out(
    '# CHECKPOINT_KEY and CLAIM_SECRET must stay the same for as long as purchases exist (sealed checkpoints, claims).',
  );
  for (const [name, value] of Object.entries(hex)) ctx.out(`${name}=${value}`);
  ctx.out(`# evidence public key (buyers pin it): ${evidence.public_key}  key_id ${evidence.key_id}`);
  return EXIT.ok;
}
