// A PostgreSQL pool whose group transactions say, in order, what they sent and what came back: what the
// group-commit tests read to check round trips (a COMMIT sent before a statement's answer, no savepoint).
import type { Database } from './database.js';

/**
 * Wraps `db` so that each statement of a group transaction adds `sent <name>` when it is sent and
 * `answered <name>` or `refused <name>` when it settles, and a COMMIT sent ahead adds `sent commit`;
 * `nameOf` names a statement (for instance `lock` or `write`), by default its first word.
 */
export function recordingDatabase(db: Database, nameOf: (text: string) => string | undefined = () => undefined): { database: Database; events: string[] } {
  const events: string[] = [];
  const name = (text: string) => nameOf(text) ?? text.split(/\s/)[0]!;
  const database: Database = {
    ...db,
    transactionWithSavepoints: (work, options) =>
      db.transactionWithSavepoints!((tx) => {
        const ahead = (tx as { commitAhead?: () => void }).commitAhead;
        return work({
          ...tx,
          query: (text, params) => {
            events.push(`sent ${name(text)}`);
            const answered = tx.query(text, params);
            answered.then(
              () => events.push(`answered ${name(text)}`),
              () => events.push(`refused ${name(text)}`),
            );
            return answered;
          },
          ...(ahead ? { commitAhead: () => (events.push('sent commit'), ahead()) } : {}),
        } as Database);
      }, options),
  };
  return { database, events };
}
