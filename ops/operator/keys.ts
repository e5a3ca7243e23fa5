import { loadEvidenceKeyFromConfig } from '../../src/evidence/keys.js';
import { onlyFlags, UsageError, type ParsedArgs } from './args.js';
import { EXIT, type OperatorContext } from './context.js';
import { keysGenerate } from './keys-generate.js';

// `keys`: the evidence public key (what /v1/capabilities publishes and buyers pin). Never the seed:
// only `key.info` (key id, algorithm, public key) is printed; the seed stays inside the signer closure.

export async function keys(ctx: OperatorContext, args: ParsedArgs): Promise<number> {
  if (args.positionals[0] === 'generate') return keysGenerate(ctx, args);
  onlyFlags(args, ['json']);
  if (args.positionals.length > 0) throw new UsageError('keys takes no arguments');
  const key = await loadEvidenceKeyFromConfig(ctx.config, { generate: false });
  const source = ctx.config.evidenceKeyHex ? 'EVIDENCE_KEY' : `${ctx.config.dataDir}/evidence-key.json`;
  const info = { key_id: key.info.key_id, algorithm: key.info.algorithm, public_key: key.info.public_key, source };
  if (args.flags.has('json')) ctx.out(JSON.stringify(info));
  else {
    ctx.out(`key_id      ${info.key_id}`);
    ctx.out(`algorithm   ${info.algorithm}`);
    ctx.out(`public_key  ${info.public_key}`);
    ctx.out(`source      ${info.source}`);
  }
  return EXIT.ok;
}
