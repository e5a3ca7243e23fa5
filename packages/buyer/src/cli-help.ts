import type { RefundReason } from '@rights-preflight/wire/contract/refund-reason.js';
import { DEFAULT_CHECK_CONCURRENCY as DEFAULT_CONCURRENCY } from './check.js';

// The buyer CLI's words (packages/buyer/src/cli.ts): the overview `--help` prints, and one page per subcommand
// (`rights-preflight <command> --help`, or `rights-preflight help <command>`) with its examples.

/** Every refund reason the service accepts, with when to use it (the codec's keys, in its order). */
export const REFUND_REASONS = {
  NOT_DELIVERED: 'paid (or possibly charged) but no report came back',
  VERIFICATION_FAILED: "a report came back and failed the buyer's verification (rights-preflight verify)",
  CHARGED_INCORRECTLY: 'charged more than once, or more than the signed quote',
  OTHER: 'anything else; say what in --message',
} as const satisfies Record<RefundReason, string>;

const reasonLines = Object.entries(REFUND_REASONS)
  .map(([r, why]) => `  ${r.padEnd(20)} ${why}`)
  .join('\n');

const PINS = `pins (flag, environment, or --env-file FILE; npm start in development writes data/buyer.env):
  --service URL            RIGHTS_SERVICE_URL          the service
  --network CAIP2          BUYER_NETWORK               e.g. eip155:8453
  --asset 0x…              BUYER_ASSET                 the USDC contract
  --recipient 0x…          BUYER_RECIPIENT             PAY_TO of the service
  --key HEX                BUYER_EVIDENCE_KEY          the service's evidence public key
  --max-per-report MICRO   BUYER_MAX_PER_REPORT_MICRO  cap per report (default 50000)
  --max-per-task MICRO     BUYER_MAX_PER_TASK_MICRO    cap for this run (default 50000)`;

const SAVING = `The signed report is saved by default to ./rights-report-<first 12 of the purchase id>.json (mode 0600),
and the summary names the file ("saved"); --out FILE chooses another. Keep it: verify reads it offline.
Ingestion is held (exit 3, "ingestion_hold" in the summary, the report saved all the same) when a standard
beside RSL (TDMRep, AI preferences, Content Signals, noai) restricts the purpose: signals_summary
RESTRICTED_BY_OTHER_SIGNAL. --ignore-other-signals never holds (exit 0).`;

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  capabilities: `usage: rights-preflight capabilities [--service URL] [--json]
Prints GET /v1/capabilities: coverage, prices, payment terms and evidence keys (free).
examples:
  rights-preflight capabilities --service http://127.0.0.1:8402
  RIGHTS_SERVICE_URL=http://127.0.0.1:8402 rights-preflight capabilities --json`,
  quote: `usage: rights-preflight quote <resource-url> --purpose P [--tier fresh|deep] [--checkpoint-dir DIR] [pins]
                          [--json]
Asks for a quote (free) and prints it: the price, the payment terms, when it expires and decision_preview,
the classification and decision the paid report will sign (unsigned until you buy). The claim is never printed.
--checkpoint-dir DIR (with BUYER_CHECKPOINT_KEY) keeps the quote, sealed, in DIR/quotes: buy of the same URL,
purpose and tier with the same DIR buys that quote while it is fresh instead of asking for another.
purposes: ai-input | ai-index | ai-train | search
examples:
  rights-preflight quote https://open.demo.example/articles/climate --purpose ai-input
  rights-preflight quote https://pub.example/a --purpose search --tier deep --json
${PINS}`,
  buy: `usage: rights-preflight buy <resource-url> --purpose P [--tier fresh|deep] [--preflight] [--out FILE]
                          [--checkpoint-dir DIR] [pins] [--json]
Buys one signed report: quote, 402 offer, an EIP-3009 authorization signed with BUYER_PRIVATE_KEY, the report.
${SAVING}
--checkpoint-dir DIR (with BUYER_CHECKPOINT_KEY, 64 hex) keeps the payment checkpoint and the claim encrypted,
so an interrupted purchase resumes and a refund can be asked for later. With it, buy uses the fresh quote
that quote kept there for the same URL, purpose and tier (one quote request in all).
purposes: ai-input | ai-index | ai-train | search
examples:
  BUYER_PRIVATE_KEY=0x… rights-preflight buy https://open.demo.example/articles/climate --purpose ai-input
  rights-preflight buy https://pub.example/a --purpose ai-index --out a.json --checkpoint-dir ~/.rights --json
${PINS}`,
  gate: `usage: rights-preflight gate <url> [<url> …] --purpose P [--tier fresh|deep] [--geo CC] [--out FILE]
                           [--checkpoint-dir DIR] [pins] [--json]
Buys one ingestion-gate report for 1–4 URLs (a sign-in proof and a payment intent, then the payment).
The caps default to the published price of the URLs given.
${SAVING}
purposes: ai-input | ai-index | ai-train | search, and the workflow aliases rag-ingestion (ai-input and
ai-index) | summarization (ai-input) | training (ai-train) | search-indexing (search)
examples:
  rights-preflight gate https://pub.example/a https://pub.example/b --purpose rag-ingestion
  rights-preflight gate https://pub.example/a --purpose training --geo DE --out gate.json --json
${PINS}`,
  check: `usage: rights-preflight check [FILE|-] --purpose P --budget MICRO [--tier fresh|deep] [--concurrency N]
                           [--manifest FILE] [--checkpoint-dir DIR] [pins] [--json]
Checks a crawl: the URLs of FILE (or stdin), one per line (# comments). URLs on origins the service does not
cover are answered from capabilities, free, without a request; the covered ones are grouped by origin into
ingestion-gate calls of up to four, each paid on its first request (never rate-limited), verified and held
as \`gate\` does, --concurrency at once (default ${DEFAULT_CONCURRENCY}). Never spends more than --budget
(micro-USDC, for the whole manifest, earlier runs included): the calls that would pass it are left
"not_bought BUDGET_EXHAUSTED".
Writes --manifest (default ./rights-check.jsonl; JSON Lines, one line per URL and step: packages/wire/vectors/README.md)
and the verified reports beside it in reports/, then a summary table. Run it again with the same manifest to
resume: a call paid but unanswered is resent with the same authorization (its checkpoint, sealed with
BUYER_CHECKPOINT_KEY, in <manifest>.checkpoints/), nothing is charged twice. Progress on a terminal only.
Exit 1 while anything is pending or held.
examples:
  rights-preflight check crawl.txt --purpose rag-ingestion --budget 5000000 --manifest crawl.jsonl
  cat urls.txt | rights-preflight check - --purpose training --budget 20000000 --concurrency 16 --json
env: BUYER_PRIVATE_KEY (0x…), BUYER_CHECKPOINT_KEY (64 hex)
${PINS}`,
  revalidate: `usage: rights-preflight revalidate <report.json|checkpoint.json> […] [--tier fresh|deep] [--out FILE]
                           [--checkpoint-dir DIR] [pins] [--json]
Buys one revalidation of 1–4 checkpoints (docs/wire.md §14): each resource observed again (conditionally),
what it is now, what changed since the checkpoint, a new checkpoint. A file may hold a checkpoint, a paid
report or a saved report (all its resources' checkpoints). The caps default to the published price.
${SAVING}
examples:
  rights-preflight revalidate rights-report-1e2580e7979d.json
  rights-preflight revalidate a-checkpoint.json b-checkpoint.json --out changes.json --json
${PINS}`,
  verify: `usage: rights-preflight verify <report.json|checkpoint.json> --key HEX [--binding-key K] [--json]
Checks a saved report (single, gate or revalidation) offline: signatures under the pinned evidence key,
digests, each resource's checkpoint, the payment binding and the settlement fields; or a checkpoint kept on
its own (its signature), and shows each resource's signals beside RSL (TDMRep, AI preferences, Content
Signals, noai), signed in the same evidence. Exit 0: it verifies; exit 1: it does not (the reason is printed).
examples:
  rights-preflight verify rights-report-1e2580e7979d.json --key 3b6a27bc…
  rights-preflight verify report.json --key "$BUYER_EVIDENCE_KEY" --json`,
  refund: `usage: rights-preflight refund <purchase_id> --reason R --checkpoint-dir DIR [--message TEXT] [--service URL]
                                  [--json]
Asks for a refund with the claim that buy/gate kept (encrypted) in --checkpoint-dir (BUYER_CHECKPOINT_KEY).
<purchase_id> is the whole id or a unique prefix of it, such as the 12 characters buy and ops print.
It files a request an operator reviews; nothing is paid back automatically.
reasons:
${reasonLines}
examples:
  rights-preflight refund 34aeaed247e1 --reason NOT_DELIVERED --checkpoint-dir ~/.rights
  rights-preflight refund 34aeaed247e1… --reason OTHER --message "charged twice?" --checkpoint-dir ~/.rights --json`,
};

export const USAGE = `usage: rights-preflight <command> [options]      (rights-preflight <command> --help: its page)
  capabilities                       [--service URL]
  quote <resource-url> --purpose P   [--tier fresh|deep] [--service URL] [pins]
  buy <resource-url> --purpose P     [--tier fresh|deep] [--preflight] [--out report.json] [--checkpoint-dir DIR] [pins]
  gate <url> [<url> …] --purpose P  [--tier fresh|deep] [--geo CC] [--out report.json] [--checkpoint-dir DIR] [pins]
                                     one ingestion-gate report for 1–4 URLs (sign-in proof + payment intent)
  check [FILE|-] --purpose P --budget MICRO [--tier fresh|deep] [--concurrency N] [--manifest FILE] [pins]
                                     a crawl: URLs one per line, gate calls of 4 by origin, manifest, resumable
  revalidate <report.json|checkpoint.json> […] [--tier fresh|deep] [--out FILE] [pins]
                                     what changed since 1–4 checkpoints (re-observed, conditionally)
  verify <report.json> --key HEX     [--binding-key K]   offline: signatures, digests, binding, settlement fields
                                     (or a checkpoint.json: its signature)
  refund <purchase_id> --reason R    --checkpoint-dir DIR [--message TEXT] [--service URL]
                                     ask for a refund with the claim kept (encrypted) by buy/gate --checkpoint-dir
                                     R: ${Object.keys(REFUND_REASONS).join(' | ')} (an operator reviews it)
  --json (every command: one JSON document on stdout, failures too), --help, --version
  --env-file FILE (every command: KEY=value settings below, e.g. data/buyer.env of npm start in development)
buy, gate and revalidate save the signed report (default ./rights-report-<id>.json; --out FILE) and print where;
  they exit 3 (ingestion held) when a standard beside RSL restricts the purpose, unless --ignore-other-signals.
pins (flag or env): --service/RIGHTS_SERVICE_URL --network/BUYER_NETWORK --asset/BUYER_ASSET
  --recipient/BUYER_RECIPIENT --key/BUYER_EVIDENCE_KEY --max-per-report/BUYER_MAX_PER_REPORT_MICRO
  --max-per-task/BUYER_MAX_PER_TASK_MICRO
  (gate: the per-report and per-task caps default to the published price of the URLs given)
purposes: buy/quote ai-input|ai-index|ai-train|search; gate also rag-ingestion|summarization|training|search-indexing
env: BUYER_PRIVATE_KEY (0x…, buy), BUYER_CHECKPOINT_KEY (64 hex, with --checkpoint-dir)`;

/** The file buy and gate save a report to when --out does not name one. */
export const defaultReportFile = (purchaseId: string) => `rights-report-${purchaseId.slice(0, 12)}.json`;
