// Registered with `node --import`: writes each module of ours the process loads to stderr, one line each,
// so a test can count what a command loads. node_modules are left out.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function load(url, context, next) {
  if (url.startsWith('file:') && !url.includes('/node_modules/')) process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}`),
);
