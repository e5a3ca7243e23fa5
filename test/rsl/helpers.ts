import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRsl } from '../../src/rsl/parse/parse.js';
import type { DocumentInput } from '../../src/rsl/evaluate/evaluate.js';
import type { Channel } from '@rights-preflight/wire/rsl/vocabulary.js';
import { createHash } from 'node:crypto';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixturesDir = path.resolve(repoRoot, 'test/fixtures/rsl');

/** Fails loudly when the shared fixtures are not checked out next to the repository. */
export function fixture(name: string): string {
  if (!existsSync(fixturesDir))
    throw new Error(`RSL fixtures not found at ${fixturesDir}; copied from the shared fixtures into test/fixtures/rsl`);
  return readFileSync(path.join(fixturesDir, name), 'utf8');
}

export function fixtureNames(): string[] {
  if (!existsSync(fixturesDir)) throw new Error(`RSL fixtures not found at ${fixturesDir}`);
  return readdirSync(fixturesDir)
    .filter((f) => f.endsWith('.xml'))
    .sort();
}

export const RSL_NS = 'https://rslstandard.org/rsl';
export const wrapFragment = (xml: string) => `<rsl xmlns="${RSL_NS}">${xml}</rsl>`;

export function docInput(xml: string, opts: { url?: string; channel?: Channel } = {}): DocumentInput {
  return {
    channel: opts.channel ?? 'robots',
    url: opts.url ?? 'https://publisher.test/license.xml',
    sha256: createHash('sha256').update(xml).digest('hex'),
    parse: parseRsl(xml),
    failure: null,
  };
}
