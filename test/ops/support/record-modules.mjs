// Registered with `node --import`: appends each module of ours the process loads to the file named by
// RECORD_MODULES_FILE, one line each, so a test can count what a command loads. node_modules are left out.
// The hook runs on the loader's own thread: a line written to stderr from there could still be in flight when
// the main thread exits (the last module's line was lost now and then), so it is appended synchronously,
// before the module it names is handed on.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
const file = process.env.RECORD_MODULES_FILE;
export async function load(url, context, next) {
  if (url.startsWith('file:') && !url.includes('/node_modules/')) appendFileSync(file, 'loaded ' + url + '\\n');
  return next(url, context);
}`),
);
