/** The one file of a SQLite data directory: the events and the read models beside them. */
export const SQLITE_FILE = 'events.sqlite';
