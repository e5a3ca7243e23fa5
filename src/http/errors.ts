// One error shape for every route: {"error": {"code", "message", "details"}} with a fitting status.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const errorBody = (code: string, message: string, details: Record<string, unknown> = {}) => ({
  error: { code, message, details },
});
