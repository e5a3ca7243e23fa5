import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openReadModels } from '../../projections/read-models.js';
import { LOCKFILE_NAME } from '../../src/store/embedded/lockfile.js';
import { openStore } from '../../src/store/open/open.js';

// A new PGlite store costs a PGlite initdb (a child process growing to ~500 MB, seconds of CPU) and its
// migrations; the suite opens well over a hundred. The first test process that needs one builds a migrated
// event store (read models included) once, closes them and leaves them in the temp dir; every later fresh store,
// in any test process of the run, is a copy (~0.2 s). The template's name carries a digest of PGlite's
// version and both schemas, so a changed migration builds a new template instead of reusing a stale one.
// PGlite's very first open (initdb included) stays covered by test/store/embedded-memory.test.ts. Only the
// PGlite-specific tests use the template (test/store/fixtures/store-under-test.ts, `embeddedStore`).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCHEMA_FILES = [
  // This file too: how the template is built (its engine) is part of what it is.
  'test/support/embedded-template.ts',
  'src/store/sql/schema.ts',
  'projections/schema.ts',
  'node_modules/@electric-sql/pglite/package.json',
];
const PREFIX = 'rights-embedded-template-';

let ready: Promise<string> | undefined;

async function templateKey(): Promise<string> {
  const h = createHash('sha256');
  for (const f of SCHEMA_FILES) h.update(await readFile(path.join(ROOT, f)));
  return h.digest('hex').slice(0, 16);
}

/** The directory holding `events/` (events and read models), built by the run's first caller; the others copy it. */
function template(): Promise<string> {
  ready ??= (async () => {
    const final = path.join(os.tmpdir(), `${PREFIX}${await templateKey()}`);
    if (existsSync(path.join(final, 'READY'))) return final;
    const building = await mkdtemp(path.join(os.tmpdir(), `${PREFIX}building-`));
    try {
      const events = `pglite:${path.join(building, 'events')}`;
      const store = await openStore(events);
      // SQL stores keep their read models beside the events: one directory holds both.
      const models = await openReadModels(store);
      await models.close();
      await store.close();
      await writeFile(path.join(building, 'READY'), '');
      // Another process may have finished first: its template is as good as ours.
      await rename(building, final).catch(() => rm(building, { recursive: true, force: true }));
    } catch (err) {
      await rm(building, { recursive: true, force: true });
      throw err;
    }
    await removeStaleTemplates(path.basename(final));
    return final;
  })();
  return ready;
}

/** Templates of other schemas, once a day old: a checkout beside this one (another branch) may be using its own. */
async function removeStaleTemplates(keep: string): Promise<void> {
  const dayAgo = Date.now() - 86_400_000;
  for (const name of await readdir(os.tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX) || name === keep) continue;
    const dir = path.join(os.tmpdir(), name);
    const old = await stat(dir).then(
      (s) => s.mtimeMs < dayAgo,
      () => false,
    );
    if (old) await rm(dir, { recursive: true, force: true }).catch(() => {});
  }
}

// A closed store leaves no lock, but a copy must never carry one (or its takeover guard) along.
const withoutLock = (src: string) => !path.basename(src).startsWith(LOCKFILE_NAME);

/** Copies a migrated, empty embedded event store into `dir` (which must not hold one yet). */
export async function copyEventStoreTemplate(dir: string): Promise<void> {
  await cp(path.join(await template(), 'events'), dir, { recursive: true, filter: withoutLock });
}

// A service's DATA_DIR is seeded with its default store (`events/`) on SQLite, the engine a new user gets
// (docs/decisions.md, "SQLite, the embedded engine"): created in milliseconds, no template. Seeded rather than
// left to the service, so a command that refuses a directory holding no store (ops/operator/store-exists.ts)
// finds one, as it would beside a service that had started once.

/** Creates a service DATA_DIR's default store (`events/`) unless it already has one. */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'events');
  if (existsSync(target)) return;
  const store = await openStore(`sqlite:${target}`);
  await store.close();
}

/**
 * Before a service process starts on `env`: seeds its DATA_DIR's default embedded store when that is the
 * store it will open (EVENT_STORE_URL unset or naming it). Other stores are left to the service.
 */
export async function seedServiceEnv(env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const dataDir = env.DATA_DIR;
  if (!dataDir) return;
  const url = env.EVENT_STORE_URL;
  if (url === undefined || url === `file:${path.join(dataDir, 'events')}`) await seedEmbeddedDataDir(dataDir);
}
