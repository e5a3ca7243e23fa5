import { mkdir, open as openFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isRight } from 'fp-ts/lib/Either.js';
import { ManifestLine } from '@rights-preflight/wire/contract/check-manifest.js';
import type { CheckIo } from '../check.js';

// A bulk check's files for Node (README "Check a crawl"): the manifest (JSON Lines, appended and fsynced
// line group by line group: it is the resume point) and the verified reports beside it in reports/,
// one per gate call, mode 0600. A line cut short by a kill is the last one; it is skipped on reading, and
// its purchase is found again from the line before it or, never signed, bought anew.

export function checkFiles(manifest: string): CheckIo {
  const dir = path.dirname(path.resolve(manifest));
  return {
    async lines() {
      let text: string;
      try {
        text = await readFile(manifest, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
      const out: ManifestLine[] = [];
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        try {
          const decoded = ManifestLine.decode(JSON.parse(raw));
          if (isRight(decoded)) out.push(decoded.right);
        } catch {
          /* a line cut short by a kill */
        }
      }
      return out;
    },
    async append(lines) {
      if (!lines.length) return;
      await mkdir(dir, { recursive: true });
      const fh = await openFile(manifest, 'a+', 0o600);
      try {
        // A fresh line after a cut-short one: the cut one then fails to parse alone, nothing else does.
        const { size } = await fh.stat();
        const end = Buffer.alloc(1);
        if (size > 0) await fh.read(end, 0, 1, size - 1);
        const lead = size > 0 && end[0] !== 0x0a ? '\n' : '';
        await fh.write(`${lead}${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
        await fh.sync();
      } finally {
        await fh.close();
      }
    },
    async saveReport(purchaseId, saved) {
      const rel = path.join('reports', `${purchaseId}.json`);
      await mkdir(path.join(dir, 'reports'), { recursive: true, mode: 0o700 });
      const fh = await openFile(path.join(dir, rel), 'w', 0o600);
      try {
        await fh.writeFile(`${JSON.stringify(saved, null, 2)}\n`);
        await fh.sync();
      } finally {
        await fh.close();
      }
      return rel;
    },
  };
}
