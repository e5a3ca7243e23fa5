import type { ProjectionStates, StoredProjectionState } from '../projection-states.js';
import type { SqlDriver } from './sql-driver.js';
import { DROP_PROJECTION, LOAD_PROJECTION, SAVE_PROJECTION } from './statements.js';

/** Projection checkpoints and states as rows of the `projections` table. */
export function sqlProjectionStates(db: SqlDriver): ProjectionStates {
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw db.translateError(err);
    }
  };
  return {
    load: (name) =>
      run(async () => {
        const [row] = await db.query<{ version: number; position: string; state: unknown }>(LOAD_PROJECTION, [name]);
        if (!row) return undefined;
        const stored: StoredProjectionState = {
          version: Number(row.version),
          position: BigInt(row.position),
          state: row.state,
        };
        return stored;
      }),
    save: (name, saved) =>
      run(async () => {
        await db.query(SAVE_PROJECTION, [name, saved.version, saved.position.toString(), JSON.stringify(saved.state)]);
      }),
    drop: (name) =>
      run(async () => {
        await db.query(DROP_PROJECTION, [name]);
      }),
  };
}
