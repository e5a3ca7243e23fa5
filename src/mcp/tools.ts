import type { Tool, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Refusal } from '@rights-preflight/wire/refusal.js';
import { decodeOrThrow } from '@rights-preflight/wire/contract/decode.js';
import { Capabilities } from '@rights-preflight/wire/contract/capabilities.js';
import { QuoteRequest, QuoteResponse } from '@rights-preflight/wire/contract/quote.js';
import { CLAIM_META_KEY, McpClaimMeta, McpQuoteResult } from '@rights-preflight/wire/contract/mcp-quote.js';
import { jsonSchemaOf } from '@rights-preflight/wire/contract/json-schema.js';

// The MCP tools (spec §4, §1.7): capability reading and quote preparation only. Input schemas are
// generated from the same io-ts codecs the HTTP routes decode with, and arguments are decoded by those
// codecs (decodeOrThrow), so MCP and HTTP accept exactly the same requests. No tool delivers a paid
// report or accepts a payment.

export interface McpDeps {
  /** The same capabilities GET /v1/capabilities serves (its builder). */
  capabilities(): Capabilities;
  /** The quote application service behind POST /v1/rights/quote. */
  quote(req: QuoteRequest): Promise<QuoteResponse>;
}

export const MCP_QUOTE_TOOL = 'service_rights_quote';
export { CLAIM_META_KEY };
// What the model reads beside the quote: the claim exists, and only the buyer's client holds it.
const CLAIM_NOTICE =
  `The claim_token of this quote is a PRIVATE SECRET, the credential of this report: it is not in this ` +
  `text or in structuredContent, only in the result's _meta["${CLAIM_META_KEY}"] for the buyer's client, ` +
  'which sends it as the X-Service-Claim header of GET report_url (402 offer, then the bound payment). ' +
  'Never copy it into logs, transcripts or model context.';

const objectSchema = (s: Record<string, unknown>) => ({ type: 'object' as const, ...s });

export const TOOLS: Tool[] = [
  {
    name: 'service_capabilities',
    title: 'Service capabilities',
    description:
      'Reads the live capability listing (covered origins, enabled products, prices in micro-USDC, payment terms, ' +
      'evidence keys, and the AI-use signal standards read beside RSL with their versions: TDMRep, IETF AI ' +
      'preferences, Content Signals, noai). Free, read-only, no report.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: objectSchema(jsonSchemaOf(Capabilities)),
    annotations: { title: 'Service capabilities', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: MCP_QUOTE_TOOL,
    title: 'Prepare a rights report quote',
    description:
      'Prepares a quote for one HTTPS resource and purpose (same contract as POST /v1/rights/quote). ' +
      "May fetch the resource's RSL metadata and consume quota: do not call it speculatively. " +
      'Returns available:false with charge_micro "0" when no declaration is found. ' +
      "An available quote's claim_token is a private secret: it is returned only in the result's " +
      `_meta["${CLAIM_META_KEY}"] for the client, never in the text or structuredContent. ` +
      'Rate-limited with POST /v1/rights/quote (one bucket). Nothing is paid or delivered through MCP.',
    inputSchema: objectSchema(jsonSchemaOf(QuoteRequest)) as Tool['inputSchema'],
    outputSchema: objectSchema(jsonSchemaOf(McpQuoteResult)),
    annotations: {
      title: 'Prepare a rights report quote',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
  },
  {
    name: 'service_quote',
    title: 'DISABLED legacy provider-routing quote',
    description:
      'DISABLED. Legacy provider-routing quote tool: provider routing is not offered by this service, ' +
      'so this tool always refuses. Exclude it from any allowlist; use service_rights_quote.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { title: 'DISABLED legacy provider-routing quote', readOnlyHint: true, openWorldHint: false },
    _meta: { 'io.service/disabled': true },
  },
];

const errorResult = (code: string, message: string, details: Record<string, unknown> = {}): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify({ error: { code, message, details } }) }],
});

export async function callTool(deps: McpDeps, name: string, args: unknown): Promise<CallToolResult> {
  try {
    switch (name) {
      case 'service_capabilities': {
        const caps = Capabilities.encode(deps.capabilities());
        return { content: [{ type: 'text', text: JSON.stringify(caps) }], structuredContent: caps };
      }
      case MCP_QUOTE_TOOL: {
        const req = decodeOrThrow(QuoteRequest, args ?? {}, { where: 'arguments' });
        const result = QuoteResponse.encode(await deps.quote(req));
        if (!result.available) {
          const unavailable = McpQuoteResult.encode(result);
          return { content: [{ type: 'text', text: JSON.stringify(unavailable) }], structuredContent: unavailable };
        }
        // The claim leaves only through _meta (docs/wire.md §12): hosts give a model text and structuredContent.
        const { claim_token, ...shareable } = result;
        const shown = McpQuoteResult.encode({ ...shareable, claim_in_meta: CLAIM_META_KEY });
        const claim = McpClaimMeta.encode({
          claim_token,
          secret: true,
          header: 'X-Service-Claim',
          report_url: result.report_url,
        });
        return {
          content: [{ type: 'text', text: `${CLAIM_NOTICE}\n${JSON.stringify(shown)}` }],
          structuredContent: shown,
          _meta: { [CLAIM_META_KEY]: claim },
        };
      }
      case 'service_quote':
        return errorResult(
          'TOOL_DISABLED',
          'service_quote is disabled: provider routing is not offered by this service. ' +
            'Use service_rights_quote; nothing was quoted or charged.',
        );
      default:
        return errorResult('UNKNOWN_TOOL', `no tool named ${name}`);
    }
  } catch (err) {
    // The refusal as it is, code and all (MCP has no status); an internal fault is not a tool result.
    if (err instanceof Refusal) return errorResult(err.code, err.message, err.details);
    throw err;
  }
}
