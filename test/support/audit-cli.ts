import { runCli } from '../../ops/cli.js';

/** `npm run ops -- audit` on the store `env` names, as an operator runs it: its exit code and every line it printed. */
export async function auditCli(env: Record<string, string>): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const code = await runCli(
    ['audit'],
    { out: (l) => out.push(l), err: (l) => out.push(l) },
    { ...env, LOG_LEVEL: 'silent' },
  );
  return { code, text: out.join('\n') };
}
