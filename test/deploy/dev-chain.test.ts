import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServiceCommand } from '../support/service-command.js';

// The development chain block: `npm run devnet` and `npm start` in development print the RPC URL,
// chain id, USDC address and funded accounts (marked development-only), and what they print is
// true — the RPC answers with that chain id and the listed accounts hold USDC there.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Block {
  rpcUrl: string;
  chainId: string;
  usdc: string;
  payTo: string;
  buyers: { address: string; key: string }[];
}

function parseBlock(text: string): Block | undefined {
  if (!/─{78}\nDEVELOPMENT CHAIN[\s\S]*─{78}/.test(text)) return undefined;
  const field = (name: string) => new RegExp(`^  ${name}\\s+(\\S+)`, 'm').exec(text)?.[1];
  const buyers = [...text.matchAll(/^ {4}(0x[0-9a-fA-F]{40}) {2}(0x[0-9a-f]{64})$/gm)].map((m) => ({
    address: m[1]!,
    key: m[2]!,
  }));
  return {
    rpcUrl: field('RPC_URL')!,
    chainId: field('chain id')!,
    usdc: field('USDC')!,
    payTo: field('PAY_TO')!,
    buyers,
  };
}

/** The block's lines, `[label, value]`, from its header to the first funded buyer (the rules and the rest of the
 *  buyers left out). */
function blockLines(text: string): [string, string][] {
  const start = text.indexOf('DEVELOPMENT CHAIN');
  const lines = text.slice(start).split('\n');
  const end = lines.findIndex((l) => /^ {4}0x/.test(l));
  return lines.slice(0, end + 1).map((l): [string, string] => {
    const m = /^ {2,4}(\S.*?)(?: {2,}(.*))?$/.exec(l);
    return m ? [m[1]!, m[2] ?? ''] : [l, ''];
  });
}

/** The README shows `0x3C44…93BC` for a printed address or key, and an example port for the RPC URL. */
function shownAs(readme: string): RegExp {
  const escaped = readme.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(
    `^${escaped.replace(/…/g, '[0-9a-fA-F]+').replace(/127\\.0\\.0\\.1:\d+/, '127\\.0\\.0\\.1:\\d+')}$`,
  );
}

async function readmeBlock(): Promise<string> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('```\nDEVELOPMENT CHAIN') + 4;
  return readme.slice(start, readme.indexOf('```', start));
}

async function rpc(url: string, method: string, params: unknown[]): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await res.json()) as { result: string }).result;
}

async function checkBlock(t: import('ava').ExecutionContext, block: Block) {
  t.is(block.chainId, '8453');
  t.is(await rpc(block.rpcUrl, 'eth_chainId', []), '0x2105');
  t.true(block.buyers.length >= 1);
  // balanceOf(first buyer) on the printed USDC address: 100 USDC.
  const data = `0x70a08231${block.buyers[0]!.address.slice(2).toLowerCase().padStart(64, '0')}`;
  t.is(BigInt(await rpc(block.rpcUrl, 'eth_call', [{ to: block.usdc, data }, 'latest'])), 100_000_000n);
}

test('npm run devnet prints the development chain block, and it is true', async (t) => {
  const child = spawn('npm', ['run', '--silent', 'devnet'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  t.teardown(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  for (let i = 0; i < 600 && !out.includes('devnet ready'); i++) await new Promise((r) => setTimeout(r, 100));
  const block = parseBlock(out);
  if (!block) return t.fail(out);
  t.regex(out, /DEVELOPMENT ONLY/);
  await checkBlock(t, block);
  // The README's block is this one: the same lines in the same order, each value as printed (abbreviated
  // keys and addresses match the printed ones; the RPC port is an example).
  const printed = blockLines(out);
  const shown = blockLines(await readmeBlock());
  t.is(shown.length, printed.length, shown.map(([label]) => label).join(' | '));
  t.true(printed.some(([label]) => label === 'RELAYER_KEY') && printed.some(([label]) => label === 'Multicall3'));
  for (const [i, [label, value]] of shown.entries()) {
    t.regex(printed[i]![0], shownAs(label));
    t.regex(printed[i]![1], shownAs(value), label);
  }
});

test('npm start in development prints the block; the service is paid to its PAY_TO in its USDC', async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rights-devstart-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    METRICS_LISTEN: 'off',
  };
  const s = await startServiceCommand('npm', env);
  t.teardown(s.kill);
  const block = parseBlock(s.output());
  if (!block) return t.fail(s.output());
  await checkBlock(t, block);
  const caps = (await (await fetch(`${s.url}/v1/capabilities`)).json()) as {
    payment: { asset: string; pay_to: string };
  };
  t.is(caps.payment.asset.toLowerCase(), block.usdc.toLowerCase());
  t.is(caps.payment.pay_to.toLowerCase(), block.payTo.toLowerCase());
  process.kill(s.nodePid, 'SIGTERM');
  t.is(await s.exited, 0);
});
