import type { Socket } from 'node:net';
import { errorBody } from './errors.js';

// Requests Node's HTTP parser refuses before Koa ever sees them (oversized headers, a malformed
// Content-Length or request line, a header timeout) still get the one documented error body.
// Node would otherwise write a bare status line. Only status and code are sent: nothing of the
// request is echoed, since its headers may carry claims or payment signatures.

const ANSWERS: Record<string, { status: number; reason: string; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'HEADERS_TOO_LARGE',
    message: 'request headers are larger than the server accepts',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'REQUEST_TIMEOUT',
    message: 'the request was not received in time',
  },
  HPE_INVALID_CONTENT_LENGTH: {
    status: 400,
    reason: 'Bad Request',
    code: 'BAD_CONTENT_LENGTH',
    message: 'Content-Length is not a valid length',
  },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    status: 400,
    reason: 'Bad Request',
    code: 'BAD_CONTENT_LENGTH',
    message: 'Content-Length conflicts with Transfer-Encoding',
  },
};
const MALFORMED = {
  status: 400,
  reason: 'Bad Request',
  code: 'MALFORMED_HTTP_REQUEST',
  message: 'the request is not valid HTTP/1.1',
};

/** For `server.on('clientError', answerClientError)`. */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const a = ANSWERS[err.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify(errorBody(a.code, a.message));
  socket.end(
    `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
