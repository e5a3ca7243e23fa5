import test from 'ava';
import { findChromium } from './chromium.js';

// Registers a file's real-browser tests, or, when there is no Chromium, one test that fails under
// CI=true (.ci/run installs it) and elsewhere a skip that says why and how to install it.
//
//   browserTests('report-browser.test.ts', 'the compliance report renders in headless Chromium', () => {
//     test('…', async (t) => { … });
//   });

export function browserTests(file: string, title: string, register: () => void): void {
  const chromium = findChromium();
  if (!('missing' in chromium)) {
    register();
    return;
  }
  const why = `Chromium not found: ${chromium.missing}`;
  if (process.env.CI === 'true') {
    test(title, (t) => {
      t.fail(
        `${why}. CI=true requires a real browser for this test: ` +
          ".ci/run installs Debian's chromium (apt-get install chromium), or set CHROMIUM_PATH.",
      );
    });
  } else {
    console.warn(
      `${file} skipped: ${why}. Install it with \`apt-get install chromium\` (or set CHROMIUM_PATH); ` +
        'under CI=true this is a failure.',
    );
    test.skip(`${title} (skipped: ${why}; apt-get install chromium)`, () => {});
  }
}
