import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// A real headless Chromium for tests that must see what a browser sees (a page renders, its DOM after
// parsing, a screenshot). One short-lived browser per call, each with a fresh profile directory that
// is removed afterwards, killed (its whole process group) if it overruns its timeout.
//
//   const found = findChromium();
//   if ('path' in found) await screenshot('/tmp/report.html', '/tmp/report.png');
//
// The machine running the tests has no network, so every flag that would make the browser call home
// (background networking, component updates, sync, QUIC) is off; --no-sandbox because CI runs as root.

export type ChromiumLookup = { path: string } | { missing: string };

const NAMES = ['chromium', 'chromium-browser'];

/** CHROMIUM_PATH if set (and then it must be executable), else `chromium` or `chromium-browser` on PATH. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  if (env.CHROMIUM_PATH) {
    return isExecutable(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file` };
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of NAMES) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return { path: candidate };
    }
  }
  return {
    missing: `no ${NAMES.join(' or ')} on PATH and CHROMIUM_PATH is not set (Debian: apt-get install chromium)`,
  };
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface ChromiumOptions {
  /** Defaults to findChromium(). */
  executable?: string;
  timeoutMs?: number;
  /** "width,height" */
  windowSize?: string;
}

/** Renders `target` (a file path or a URL) and writes a PNG screenshot to `png`. */
export async function screenshot(target: string, png: string, opts: ChromiumOptions = {}): Promise<void> {
  const file = path.resolve(png);
  await runChromium(
    [`--screenshot=${file}`, `--window-size=${opts.windowSize ?? '1280,2000'}`, '--hide-scrollbars', toUrl(target)],
    opts,
  );
  const written = await stat(file).catch(() => undefined);
  if (!written?.isFile()) throw new Error(`Chromium exited without writing ${file}`);
}

/** Renders `target` (a file path or a URL) and returns the serialized DOM after parsing. */
export async function dumpDom(target: string, opts: ChromiumOptions = {}): Promise<string> {
  return (await runChromium(['--dump-dom', toUrl(target)], opts)).stdout;
}

const toUrl = (target: string) =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) ? target : pathToFileURL(path.resolve(target)).href;

export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage', // containers often have a tiny /dev/shm
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
];

async function runChromium(args: string[], opts: ChromiumOptions): Promise<{ stdout: string; stderr: string }> {
  const executable = opts.executable ?? executableOrThrow();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const profile = await mkdtemp(path.join(tmpdir(), 'chromium-profile-'));
  try {
    return await new Promise((resolve, reject) => {
      // Its own process group, so a timeout kills the renderer and helper processes too.
      const child = spawn(executable, [...FLAGS, `--user-data-dir=${profile}`, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => {
        stdout += s;
      });
      child.stderr.setEncoding('utf8').on('data', (s: string) => {
        stderr += s;
      });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, timeoutMs);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (timedOut)
          reject(new Error(`Chromium timed out after ${timeoutMs} ms (${args.join(' ')})\n${tail(stderr)}`));
        else if (code !== 0)
          reject(new Error(`Chromium exited with ${code ?? signal} (${args.join(' ')})\n${tail(stderr)}`));
        else resolve({ stdout, stderr });
      });
    });
  } finally {
    // Helpers may still be releasing the profile for a moment after the main process exits.
    await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

function executableOrThrow(): string {
  const found = findChromium();
  if ('missing' in found) throw new Error(`Chromium not found: ${found.missing}`);
  return found.path;
}

const tail = (text: string) => text.split('\n').slice(-20).join('\n');
