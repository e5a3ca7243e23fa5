// One error shape for every route and MCP tool: {"error": {"code", "message", "details"}}.
export const errorBody = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  error: { code, message, details },
});
