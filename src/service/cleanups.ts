/**
 * What startService undoes, in the order it was set up; each part of the composition pushes its own
 * steps as it opens things, so a failure half-way closes exactly what was opened (in reverse).
 */
export type Cleanups = (() => Promise<void>)[];
