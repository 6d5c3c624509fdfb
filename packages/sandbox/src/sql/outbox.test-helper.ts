// What the outbox's PostgreSQL tests start with: a database of their own with the outbox's tables, and a
// callback receiver on 127.0.0.1 that hands each request's JSON body to the test.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import type { Database } from './database.js';
import { outboxTables } from './outbox.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPostgres } from './postgres.js';

export async function outboxDatabase(): Promise<Database> {
  const db = await openPostgres(await createTestDatabase(inject('postgresUrl')));
  for (const statement of outboxTables) await db.query(statement);
  return db;
}

/** A receiver whose `answer` reads each request's parsed body and answers it (or leaves it hanging). */
export async function jsonReceiver(answer: (body: any, res: ServerResponse) => void) {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk));
    req.on('end', () => answer(JSON.parse(text), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
