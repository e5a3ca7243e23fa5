import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, TOOLS, type McpDeps } from './tools.js';

// One MCP server per request (stateless Streamable HTTP, the SDK's recommended shape). We use the
// McpServer's underlying protocol server with our own tools/list and tools/call handlers instead of
// registerTool: registerTool wants zod schemas, while our contracts are io-ts codecs; this way the
// published input schemas and the argument validation both come from the codecs (no second copy).
export function buildMcpServer(deps: McpDeps, version: string): McpServer {
  const mcp = new McpServer(
    { name: 'rights-preflight', version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Rights Preflight Service: read capabilities and prepare quotes only. ' +
        'Paid reports are bought over HTTP x402, never through MCP. ' +
        "A quote's claim_token is a private secret.",
    },
  );
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req) =>
    callTool(deps, req.params.name, req.params.arguments),
  );
  return mcp;
}
