// Plain-text tables for terminal output.
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Ids in tables: their first SHORT_ID hex characters (every command takes such a unique prefix). */
export const SHORT_ID = 12;
export const shortId = (id: string): string => id.slice(0, SHORT_ID);
