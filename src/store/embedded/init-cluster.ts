import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Creates a new embedded cluster (PGlite's initdb) in a short-lived child process. initdb is a
 * second WebAssembly Postgres that grows its memory to ~500 MB; WebAssembly memory is never given
 * back, so run in the service it would stay in the service's RSS for good (a first start measured
 * ~880 MB against ~360 MB for a reopen). In a child it is all returned when the child exits.
 * A directory that already holds a cluster is left alone.
 */
export async function initEmbeddedCluster(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script =
    `const { PGlite } = await import(${JSON.stringify(pglite)});` +
    ' const db = await PGlite.create(process.argv[1]); await db.close();';
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir], { timeout: 120_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`could not create the embedded store in ${dir}${stderr ? `: ${stderr.split('\n').at(-1)}` : ''}`);
  }
}
