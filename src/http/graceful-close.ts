import type http from 'node:http';

// Drain: stop accepting connections, close each keep-alive connection as soon as it is idle, and let
// requests already being served finish. After `graceMs` whatever is still open is cut.
export async function closeGracefully(server: http.Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), graceMs);
  });
  const outcome = await Promise.race([closed.then(() => 'closed' as const), expired]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (outcome === 'expired') {
    server.closeAllConnections();
    await closed;
  }
}
