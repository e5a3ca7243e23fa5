import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { findChromium, FLAGS } from './chromium.js';

// A real headless Chromium driven like a person would: open a page, click, type, submit, read the
// DOM, take a screenshot. It speaks the DevTools protocol over --remote-debugging-pipe (fd 3 in,
// fd 4 out, one JSON message per NUL), so no port is opened and no WebSocket client is needed.
//
//   const browser = await launchBrowser();
//   const page = await browser.open('http://127.0.0.1:41873/console');
//   await page.waitFor(`document.querySelector('#queue') !== null`);
//   await browser.close();

interface Pending {
  resolve: (v: any) => void;
  reject: (e: Error) => void;
}

export interface BrowserPage {
  /** Navigates and resolves once the load event fired. */
  goto(url: string): Promise<void>;
  /** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Polls `expression` until it is truthy; fails after `timeoutMs`. */
  waitFor(expression: string, timeoutMs?: number): Promise<void>;
  /** Runs `action` (which makes the page navigate) and resolves after the next load event. */
  navigating(action: string): Promise<void>;
  screenshot(): Promise<Buffer>;
}

export interface Browser {
  open(url: string): Promise<BrowserPage>;
  close(): Promise<void>;
}

export async function launchBrowser(opts: { timeoutMs?: number } = {}): Promise<Browser> {
  const found = findChromium();
  if ('missing' in found) throw new Error(`Chromium not found: ${found.missing}`);
  const profile = await mkdtemp(path.join(tmpdir(), 'chromium-cdp-'));
  const child: ChildProcess = spawn(
    found.path,
    [...FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe', '--window-size=1280,1400', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    stderr = (stderr + s).slice(-4000);
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(m: { method: string; sessionId?: string; params: any }) => void>();
  let nextId = 1;
  let buffered = Buffer.alloc(0);
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (let end = buffered.indexOf(0); end >= 0; end = buffered.indexOf(0)) {
      const message = JSON.parse(buffered.subarray(0, end).toString('utf8'));
      buffered = buffered.subarray(end + 1);
      if (message.id !== undefined) {
        const p = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) p?.reject(new Error(`${message.error.message} (${message.error.code})`));
        else p?.resolve(message.result);
      } else for (const l of [...listeners]) l(message);
    }
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      for (const p of pending.values()) p.reject(new Error(`Chromium exited\n${stderr}`));
      resolve();
    }),
  );

  const timeoutMs = opts.timeoutMs ?? 30_000;
  function send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
    const id = nextId++;
    toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method} got no answer in ${timeoutMs} ms\n${stderr}`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }
  function nextEvent(method: string, sessionId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(l);
        reject(new Error(`no ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const l = (m: { method: string; sessionId?: string }) => {
        if (m.method === method && m.sessionId === sessionId) {
          clearTimeout(timer);
          listeners.delete(l);
          resolve();
        }
      };
      listeners.add(l);
    });
  }

  return {
    async open(url) {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
      await send('Page.enable', {}, sessionId);
      const evaluate = async <T>(expression: string): Promise<T> => {
        const r = await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
        if (r.exceptionDetails)
          throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        return r.result.value as T;
      };
      const page: BrowserPage = {
        async goto(to) {
          const loaded = nextEvent('Page.loadEventFired', sessionId);
          await send('Page.navigate', { url: to }, sessionId);
          await loaded;
        },
        evaluate,
        async waitFor(expression, waitMs = 10_000) {
          const deadline = Date.now() + waitMs;
          while (!(await evaluate<boolean>(`Boolean(${expression})`))) {
            if (Date.now() > deadline) throw new Error(`the page never satisfied ${expression}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        },
        async navigating(action) {
          const loaded = nextEvent('Page.loadEventFired', sessionId);
          await evaluate(action);
          await loaded;
        },
        async screenshot() {
          const { data } = await send(
            'Page.captureScreenshot',
            { format: 'png', captureBeyondViewport: true },
            sessionId,
          );
          return Buffer.from(data as string, 'base64');
        },
      };
      await page.goto(url);
      return page;
    },
    async close() {
      await send('Browser.close').catch(() => {});
      const killer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5_000);
      await exited;
      clearTimeout(killer);
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
