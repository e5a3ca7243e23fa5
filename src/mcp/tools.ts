import type { Tool, CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Refusal } from '../refusal.js';
import { decodeOrThrow } from '../contract/decode.js';
import { Capabilities } from '../contract/capabilities.js';
import { QuoteRequest, QuoteResponse } from '../contract/quote.js';
import { jsonSchemaOf } from '../http/schema/json-schema.js';

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

export const SENSITIVE_META_KEY = 'io.service/sensitive';
export const CLAIM_WARNING =
  'claim_token is a PRIVATE SECRET: it is the credential of this report. ' +
  'Never place it in shared logs, transcripts or model context; ' +
  'send it only as the X-Service-Claim header of GET report_url (402 offer, then the bound payment).';

const objectSchema = (s: Record<string, unknown>) => ({ type: 'object' as const, ...s });

export const TOOLS: Tool[] = [
  {
    name: 'service_capabilities',
    title: 'Service capabilities',
    description:
      'Reads the live capability listing (covered origins, enabled products, prices in micro-USDC, payment terms, ' +
      'evidence keys). Free, read-only, no report.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: objectSchema(jsonSchemaOf(Capabilities)),
    annotations: { title: 'Service capabilities', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'service_rights_quote',
    title: 'Prepare a rights report quote',
    description:
      'Prepares a quote for one HTTPS resource and purpose (same contract as POST /v1/rights/quote). ' +
      "May fetch the resource's RSL metadata and consume quota: do not call it speculatively. " +
      'Returns available:false with charge_micro "0" when no declaration is found. ' +
      "An available quote returns a claim_token that is a private secret (see the result's _meta). " +
      'Nothing is paid or delivered through MCP.',
    inputSchema: objectSchema(jsonSchemaOf(QuoteRequest)) as Tool['inputSchema'],
    outputSchema: objectSchema(jsonSchemaOf(QuoteResponse)),
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
      case 'service_rights_quote': {
        const req = decodeOrThrow(QuoteRequest, args ?? {}, { where: 'arguments' });
        const result = QuoteResponse.encode(await deps.quote(req));
        if (!result.available)
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
        const { claim_token, ...shareable } = result;
        return {
          content: [
            // What a model may read: the quote without its secret, and the warning.
            {
              type: 'text',
              text: `${CLAIM_WARNING}\n${JSON.stringify({
                ...shareable,
                claim_token: '[withheld: private secret, see the user-only block]',
              })}`,
            },
            // The secret for its owner only (MCP audience annotation): hosts must not forward it to a model.
            { type: 'text', text: JSON.stringify({ claim_token }), annotations: { audience: ['user'], priority: 1 } },
          ],
          structuredContent: result,
          _meta: { [SENSITIVE_META_KEY]: { fields: ['claim_token'], secret: true, warning: CLAIM_WARNING } },
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
