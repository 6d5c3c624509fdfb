// A database, no PostgreSQL behind it, whose transactions record their statements and fail where a test
// says: what the group commit does with an error (group-commit-rules, failed-rollback-ends-group).
import type { Database } from './database.js';

export type Script = { failQuery?: (text: string) => boolean; failBegin?: () => boolean; failCommit?: boolean; flushLater?: boolean };

/** A database whose transactions record their statements; `flushes` are the flush promises it handed out, in order. */
export function fakeDatabase(script: Script = {}) {
  const statements: string[] = [];
  const flushes: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const query = async (text: string) => {
    statements.push(text);
    if (script.failQuery?.(text)) throw new Error(`refused: ${text}`);
    return [];
  };
  const tx: Database = { kind: 'postgres', query: query as Database['query'], transaction: (work) => work(tx), close: async () => {} };
  const db: Database = {
    kind: 'postgres',
    query: query as Database['query'],
    transaction: async (work) => {
      if (script.failBegin?.()) throw new Error('database unreachable');
      statements.push('begin');
      const value = await work(tx);
      if (script.failCommit) {
        statements.push('rollback');
        throw new Error('commit failed');
      }
      statements.push('commit');
      return value;
    },
    close: async () => {},
  };
  if (script.flushLater) {
    db.transactionWithSavepoints = async (work, options) => {
      const value = await db.transaction(work);
      options?.flushLater?.(new Promise<void>((resolve, reject) => flushes.push({ resolve, reject })));
      return value;
    };
  }
  return { db, statements, flushes };
}
