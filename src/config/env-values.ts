import * as t from 'io-ts';
import { originListCodec } from './origin-list-codec.js';
import { ConfigError } from './config-error.js';

// The shapes an environment variable's text may take (ports, positive integers, booleans, hex keys,
// lists, URLs, addresses, the network): each codec decodes the text and says what is wrong with it.

export const PortString = new t.Type<number, string, unknown>(
  'Port',
  (u): u is number => typeof u === 'number',
  (u, c) => {
    if (typeof u !== 'string' || !/^\d{1,5}$/.test(u)) return t.failure(u, c, 'must be a port number 0..65535');
    const n = Number(u);
    return n <= 65535 ? t.success(n) : t.failure(u, c, 'must be a port number 0..65535');
  },
  String,
);
export const PositiveIntString = new t.Type<number, string, unknown>(
  'PositiveInt',
  (u): u is number => typeof u === 'number',
  (u, c) =>
    typeof u === 'string' && /^[1-9][0-9]{0,9}$/.test(u)
      ? t.success(Number(u))
      : t.failure(u, c, 'must be a positive integer'),
  String,
);
export const BoolString = new t.Type<boolean, string, unknown>(
  'Bool',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) =>
    u === 'true' || u === '1'
      ? t.success(true)
      : u === 'false' || u === '0' || u === ''
        ? t.success(false)
        : t.failure(u, c, 'must be true or false'),
  String,
);
export const Hex32Key = new t.Type<string, string, unknown>(
  'Hex32Key',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && /^(0x)?[0-9a-fA-F]{64}$/.test(u)
      ? t.success(u.replace(/^0x/, '').toLowerCase())
      : t.failure(u, c, 'must be 32 bytes as 64 hex characters'),
  String,
);
/** The non-empty, trimmed items of a comma-separated setting (none when it is not a string). */
const commaList = (u: unknown): string[] =>
  typeof u === 'string'
    ? u
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

export const Hex32KeyList = new t.Type<string[], string, unknown>(
  'Hex32KeyList',
  (u): u is string[] => Array.isArray(u),
  (u, c) => {
    const items = commaList(u);
    return typeof u === 'string' && items.length > 0 && items.every((k) => /^(0x)?[0-9a-fA-F]{64}$/.test(k))
      ? t.success([...new Set(items.map((k) => k.replace(/^0x/, '').toLowerCase()))])
      : t.failure(u, c, 'must be a comma-separated list of 32-byte keys as 64 hex characters');
  },
  (a) => a.join(','),
);
export const OriginList = originListCodec('OriginList', 'https', 'https://example.com');
export const Url = new t.Type<string, string, unknown>(
  'Url',
  (u): u is string => typeof u === 'string',
  (u, c) => {
    if (typeof u !== 'string') return t.failure(u, c, 'must be a URL');
    try {
      new URL(u);
      return t.success(u);
    } catch {
      return t.failure(u, c, 'must be a URL');
    }
  },
  String,
);
export const AddressList = new t.Type<`0x${string}`[], string, unknown>(
  'AddressList',
  (u): u is `0x${string}`[] => Array.isArray(u),
  (u, c) => {
    const items = commaList(u);
    return typeof u === 'string' && items.every((a) => /^0x[0-9a-fA-F]{40}$/.test(a))
      ? t.success(items as `0x${string}`[])
      : t.failure(u, c, 'must be a comma-separated list of 0x-prefixed 20-byte addresses');
  },
  (a) => a.join(','),
);

export function parseConnectTo(value: string | undefined): Record<string, { address: string; port: number }> {
  const out: Record<string, { address: string; port: number }> = {};
  if (!value) return out;
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9.-]+):(127\.\d+\.\d+\.\d+|localhost):(\d{1,5})$/i.exec(item);
    if (!m) throw new ConfigError('FETCH_CONNECT_TO', `entry "${item}" must look like host:127.0.0.1:port`);
    out[m[1]!.toLowerCase()] = { address: m[2]!, port: Number(m[3]) };
  }
  return out;
}
