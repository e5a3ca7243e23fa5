import net from 'node:net';
import type { ConfigProblem } from './config-error.js';

// Whether an address can be listened on, asked before anything starts: a held port used to be found
// only after the devnet, the keys and the store (docs/decisions.md, "Start-up checks before anything
// starts"). The probe binds and closes at once; the real bind later still names its setting if another
// process takes the port in between (src/http/listen-error.ts).

const ADVICE: Record<string, string> = {
  EADDRINUSE: 'is in use: choose another, or stop what holds it',
  EACCES: 'may not be bound by this user: choose a port above 1023',
  EADDRNOTAVAIL: 'is no local address of this machine',
};

/**
 * The problem of listening on `host:port`, named after `setting` (`HOST` when the address itself is not
 * this machine's), or undefined when it is free. Port 0 always is (the system picks one).
 */
export async function addressProblem(
  host: string,
  port: number,
  setting: string,
  hostSetting = setting,
): Promise<ConfigProblem | undefined> {
  if (port === 0) return undefined;
  const code = await new Promise<string | undefined>((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'failed'));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
  if (code === undefined) return undefined;
  const shown = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const variable = code === 'EADDRNOTAVAIL' ? hostSetting : setting;
  return { variable, problem: `${shown} ${ADVICE[code] ?? `cannot be listened on (${code})`}` };
}
