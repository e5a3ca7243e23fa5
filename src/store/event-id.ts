// Event ids are UUIDs on every adapter (EventStoreDB requires it, the SQL schema stores `uuid`).
// Checking up front gives the same clear error everywhere instead of a driver-specific one.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function assertEventIds(stream: string, ids: readonly string[]): void {
  const seen = new Set<string>();
  for (const id of ids) {
    if (!UUID.test(id)) throw new TypeError(`stream ${stream}: event id ${JSON.stringify(id)} is not a UUID`);
    const key = id.toLowerCase();
    if (seen.has(key)) throw new TypeError(`stream ${stream}: event id ${id} appears twice in one append`);
    seen.add(key);
  }
}
