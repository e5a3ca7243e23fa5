/** Ids in tables and on the console: their first SHORT_ID hex characters (every command takes such a unique prefix). */
export const SHORT_ID = 12;
export const shortId = (id: string): string => id.slice(0, SHORT_ID);
