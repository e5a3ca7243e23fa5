import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { browserTests } from '../support/browser-tests.js';
import { type BrowserPage, launchBrowser } from '../support/cdp-pipe.js';
import { DECLARED, getReport, quoteAndOffer } from '../support/money-env.js';
import { signPayment } from '../support/pay.js';
import { opsConsole, serviceBeside } from './service-beside.js';

// The console's purchase list as an operator uses it: `npm start`, a real paid purchase from a
// publisher on loopback, `npm run ops -- console`, and a headless Chromium that opens the list from
// the header, filters by the purchase's origin through the page's form, finds the purchase with its
// revenue, follows its row to the detail page, and takes a screenshot. Another origin finds nothing. The
// list, the purchase page, a search by transaction and the coverage page are each measured at 1,280 px.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** No table cell of the page ends right of the 1,280 px viewport, and the page does not scroll sideways. */
async function fitsTheWindow(t: ExecutionContext, page: BrowserPage, what: string): Promise<void> {
  const overflow = await page.evaluate<{ scroll: number; client: number; cells: string[]; measured: number }>(`(() => {
    const client = document.documentElement.clientWidth;
    const all = [...document.querySelectorAll('td, th')];
    const cells = all
      .filter((c) => c.getBoundingClientRect().right > client + 0.5)
      .map((c) => c.innerText.slice(0, 40));
    return { scroll: document.documentElement.scrollWidth, client, cells, measured: all.length };
  })()`);
  t.true(overflow.client > 1200 && overflow.client <= 1280, `${what}: a 1,280 px window (${overflow.client})`);
  t.true(overflow.measured > 0, `${what}: a page with a table to measure`);
  t.deepEqual(overflow.cells, [], `${what}: cells past the right edge`);
  t.true(overflow.scroll <= overflow.client, `${what}: ${overflow.scroll} px wide in a ${overflow.client} px window`);
}

browserTests('console-purchases-browser.test.ts', 'the console purchase list in headless Chromium', () => {
  test('the purchase list in Chromium: filter by origin, find the purchase, its revenue, its page', async (t) => {
    const world = await serviceBeside(async () => undefined);
    t.teardown(() => world.close());
    const { q, claim, paymentRequired } = await quoteAndOffer(world.service.url);
    const signature = await signPayment(world.devnet.buyers[0]!.privateKey, paymentRequired);
    const paid = await getReport(world.service.url, q.report_url, { ...claim, 'payment-signature': signature });
    t.is(paid.status, 200, paid.text);
    const id = q.purchase_id as string;

    const console = await opsConsole(world.opsEnv);
    t.teardown(() => console.stop());
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const page = await browser.open(console.url);
    await page.navigating(`document.querySelector('header a[href="/console/purchases"]').click()`);
    t.is(await page.evaluate<string>('location.pathname'), '/console/purchases');

    const filterBy = async (origin: string) => {
      await page.navigating(`(() => {
        const form = document.querySelector('#filters');
        form.querySelector('[name=origin]').value = ${JSON.stringify(origin)};
        form.requestSubmit();
      })()`);
    };
    await filterBy('https://elsewhere.example');
    t.regex(await page.evaluate<string>(`document.querySelector('#purchases').innerText`), /No purchase matches/);
    t.is(await page.evaluate<string>(`document.querySelector('#total-purchases').innerText`), '0');

    await filterBy(new URL(DECLARED).origin);
    t.is(await page.evaluate<string>('new URL(location.href).searchParams.get("origin")'), new URL(DECLARED).origin);
    const rows = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#purchases tbody tr')].map((r) => r.innerText)`,
    );
    t.is(rows.length, 1, rows.join('\n'));
    t.true(rows[0]!.includes(id.slice(0, 12)), rows[0]);
    t.regex(rows[0]!, /delivered/);
    const price = (Number(q.charge_micro) / 1e6).toFixed(6);
    t.is(await page.evaluate<string>(`document.querySelector('#total-paid').innerText`), '1');
    t.is(await page.evaluate<string>(`document.querySelector('#total-revenue').innerText`), price);
    await fitsTheWindow(t, page, 'the purchase list');
    const png = await page.screenshot();
    const shot = await mkdtemp(path.join(tmpdir(), 'operator-purchases-'));
    t.teardown(() => rm(shot, { recursive: true, force: true }));
    await writeFile(path.join(shot, 'purchases.png'), png);
    const saved = await readFile(path.join(shot, 'purchases.png'));
    t.deepEqual(saved.subarray(0, 8), PNG_SIGNATURE, 'a PNG');
    t.true(saved.length > 5_000, `a non-empty screenshot (${saved.length} bytes)`);

    await page.navigating(`document.querySelector('#purchases tbody a').click()`);
    t.is(await page.evaluate<string>('location.pathname'), `/console/purchases/${id}`);
    t.regex(await page.evaluate<string>(`document.querySelector('#timeline').innerText`), /Delivered/);

    // At 1,280 px nothing runs off the page: no cell ends right of the viewport (the resources table's
    // sha256 columns did), and the page does not scroll sideways.
    await fitsTheWindow(t, page, 'the purchase page');

    // One unit for money (USDC, the micro-USDC on hover) and ISO times on both pages.
    const detail = await page.evaluate<string>(`document.querySelector('#purchase').innerText`);
    t.regex(detail, new RegExp(`price\\s+${price.replace('.', '\\.')} USDC`));
    t.regex(detail, /quoted\s+\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
    t.notRegex(await page.evaluate<string>('document.body.innerText'), /micro-USDC/);
    const transaction = (
      await page.evaluate<string>(
        `[...document.querySelectorAll('#purchase tr')]` +
          `.find((r) => r.querySelector('th').innerText === 'transaction').querySelector('td').innerText`,
      )
    ).trim();
    const payer = (
      await page.evaluate<string>(
        `[...document.querySelectorAll('#purchase tr')]` +
          `.find((r) => r.querySelector('th').innerText === 'payer').querySelector('td').innerText`,
      )
    ).trim();
    t.regex(transaction, /^0x[0-9a-f]{64}$/);

    // Search by transaction, payer (any case) and id prefix finds it; an unknown transaction finds nothing.
    const search = async (q: string) => {
      await page.navigating(`location.href = '/console/purchases?q=' + encodeURIComponent(${JSON.stringify(q)})`);
      return page.evaluate<string[]>(`[...document.querySelectorAll('#purchases tbody tr')].map((r) => r.innerText)`);
    };
    for (const q of [transaction, transaction.toUpperCase().replace('0X', '0x'), payer.toLowerCase(), id.slice(0, 8)]) {
      const found = await search(q);
      t.is(found.length, 1, `${q}: ${found.join('\n')}`);
      t.true(found[0]!.includes(id.slice(0, 12)), q);
      t.regex(found[0]!, new RegExp(`${price.replace('.', '\\.')} USDC`));
      t.regex(found[0]!, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/);
    }
    await fitsTheWindow(t, page, 'the list found by transaction');
    t.deepEqual(await search(`0x${'e'.repeat(64)}`), []);

    // The coverage page (reviews, the ledger's history) measured the same way.
    await page.navigating(`location.href = '/console/coverage'`);
    await fitsTheWindow(t, page, 'the coverage page');
    t.is(
      await page.evaluate<string>(`document.querySelector('#purchases .usdc')?.title ?? ''`),
      '',
      'no rows, no amounts',
    );
  });
});
