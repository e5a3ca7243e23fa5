import * as t from 'io-ts';

// A comma-separated list of exact origins in an environment variable (COVERED_ORIGINS: https only;
// CORS_ORIGINS: http or https), decoded to their normalized `URL.origin` form.
export function originListCodec(
  name: string,
  kind: 'https' | 'http or https',
  example: string,
): t.Type<string[], string, unknown> {
  const protocols = kind === 'https' ? ['https:'] : ['https:', 'http:'];
  return new t.Type<string[], string, unknown>(
    name,
    (u): u is string[] => Array.isArray(u),
    (u, c) => {
      if (typeof u !== 'string')
        return t.failure(u, c, `must be a comma-separated list of ${kind === 'https' ? 'https ' : ''}origins`);
      const items = u
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const item of items) {
        let url: URL;
        try {
          url = new URL(item);
        } catch {
          return t.failure(u, c, `"${item}" is not a URL`);
        }
        if (!protocols.includes(url.protocol) || url.origin !== item.replace(/\/$/, ''))
          return t.failure(
            u,
            c,
            `"${item}" must be an exact ${kind === 'https' ? 'https ' : ''}origin like ${example}`,
          );
      }
      return t.success(items.map((s) => new URL(s).origin));
    },
    (a) => a.join(','),
  );
}
