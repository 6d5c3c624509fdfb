// A database whose commits can be held back, so that a test sees the PGlite mirror answer from writes it has
// not confirmed yet (the overlay), then lets them land.
import type { Database } from './database.js';

/**
 * Wraps `db`: while held, a transaction and a statement without parameters (the mirror's commit message)
 * wait. `hold()` holds them and returns the function that lets them go.
 */
export function heldCommits(db: Database): { database: Database; hold(): () => void } {
  let gate: Promise<void> | undefined;
  const database: Database = {
    ...db,
    transaction: async (work) => (await gate, db.transaction(work)),
    query: async (text, params) => (params?.length ? db.query(text, params) : (await gate, db.query(text, params))),
  };
  return {
    database,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}
