import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApi } from '../src/http/schema/openapi.js';
import { productCatalog } from '../src/service/product-registry.js';

// Writes the document GET /openapi.json serves to a file, for tools that lint a file (.ci/run runs
// `npx @redocly/cli lint --extends recommended` on it: 0 errors and 0 warnings; docs/decisions.md).
//   tsx scripts/write-openapi.ts build/openapi.json
const file = process.argv[2] ?? 'build/openapi.json';
await mkdir(path.dirname(path.resolve(file)), { recursive: true });
await writeFile(
  file,
  `${JSON.stringify(
    buildOpenApi({ version: '0.1.0', serverUrl: 'http://127.0.0.1:8402', products: productCatalog().openapi() }),
    null,
    2,
  )}\n`,
);
