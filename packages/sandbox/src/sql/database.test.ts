// The same statements on PGlite and on a real PostgreSQL server give the same rows, the same values in
// JavaScript, the same errors (SQLSTATE codes) and the same transactions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase, freePort } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

const schema = `
  CREATE TABLE item (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, data jsonb, blob bytea, at timestamptz, amount numeric, big int8);
  CREATE INDEX item_at ON item (at);
`;

const engines: [string, () => Promise<Database>][] = [
  ['pglite', () => openPglite()],
  ['postgres', async () => openPostgres(await createTestDatabase(inject('postgresUrl')))],
];

describe.each(engines)('%s', (kind, open) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
    await db.query(schema);
  }, 60_000);
  afterAll(() => db?.close());

  it('says which engine it is', () => expect(db.kind).toBe(kind));

  it('returns the same JavaScript values for each column type', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const [row] = await db.query('INSERT INTO item (name, data, blob, at, amount, big) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *', ['values', JSON.stringify({ k: [1, 'x'] }), Buffer.from([1, 2, 255]), at, '12.50', 2n ** 60n]);
    expect(row).toEqual({ id: expect.any(Number), name: 'values', data: { k: [1, 'x'] }, blob: Buffer.from([1, 2, 255]), at, amount: '12.50', big: 2n ** 60n });
    expect(Buffer.isBuffer(row!.blob)).toBe(true);
    const [object] = await db.query('INSERT INTO item (name, data) VALUES ($1, $2) RETURNING data', ['object', { k: [2] }]);
    expect(object).toEqual({ data: { k: [2] } }); // a json parameter may be a value or JSON text
    const [count] = await db.query<{ n: number }>('SELECT count(*) AS n FROM item WHERE name = $1', ['values']);
    expect(count).toEqual({ n: 1 }); // count(*) is int8: a number while it is safe
  });

  it('runs several statements at once when there are no parameters, returning the last one’s rows', async () => {
    const rows = await db.query("CREATE TABLE scratch (n int); INSERT INTO scratch VALUES (1), (2); SELECT n FROM scratch ORDER BY n");
    expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('reports a unique violation with its SQLSTATE', async () => {
    await db.query('INSERT INTO item (name) VALUES ($1)', ['twice']);
    await expect(db.query('INSERT INTO item (name) VALUES ($1)', ['twice'])).rejects.toMatchObject({ code: '23505' });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const id = await db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>('INSERT INTO item (name) VALUES ($1) RETURNING id', ['kept']);
      return row!.id;
    });
    expect(id).toEqual(expect.any(Number));
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO item (name) VALUES ($1)', ['dropped']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const names = (await db.query<{ name: string }>('SELECT name FROM item WHERE name = ANY($1::text[]) ORDER BY name', [['kept', 'dropped']])).map((r) => r.name);
    expect(names).toEqual(['kept']);
  });

  it('rolls back a nested transaction alone (a savepoint)', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO item (name) VALUES ($1)', ['outer']);
      await expect(
        tx.transaction(async (inner) => {
          await inner.query('INSERT INTO item (name) VALUES ($1)', ['inner']);
          await inner.query('INSERT INTO item (name) VALUES ($1)', ['outer']); // unique violation
        }),
      ).rejects.toMatchObject({ code: '23505' });
      await tx.transaction((inner) => inner.query('INSERT INTO item (name) VALUES ($1)', ['inner ok']));
    });
    const names = (await db.query<{ name: string }>("SELECT name FROM item WHERE name IN ('outer', 'inner', 'inner ok') ORDER BY name")).map((r) => r.name);
    expect(names).toEqual(['inner ok', 'outer']);
  });

  it('keeps a transaction’s writes from other queries until it commits', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = db.transaction(async (tx) => {
      await tx.query('INSERT INTO item (name) VALUES ($1)', ['isolated']);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reading = db.query<{ n: number }>('SELECT count(*) AS n FROM item WHERE name = $1', ['isolated']);
    if (kind === 'postgres') {
      // Another connection reads the last committed state, at once.
      expect(await reading).toEqual([{ n: 0 }]);
      release();
    } else {
      // PGlite has one connection: the read waits for the commit.
      release();
      expect(await reading).toEqual([{ n: 1 }]);
    }
    await writing;
    expect(await db.query('SELECT name FROM item WHERE name = $1', ['isolated'])).toEqual([{ name: 'isolated' }]);
  });
});

describe('postgres', () => {
  it('refuses to open a database it cannot reach, at once', async () => {
    const port = await freePort(); // nothing listens there
    await expect(openPostgres(`postgres://postgres@127.0.0.1:${port}/none`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('pglite in a directory', () => {
  it('keeps what was written across a close and a reopen', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'idv-pglite-')), 'data');
    try {
      const first = await openPglite(dir);
      await first.query('CREATE TABLE kept (n int)');
      await first.query('INSERT INTO kept VALUES ($1)', [42]);
      await first.close();
      const second = await openPglite(dir);
      expect(await second.query('SELECT n FROM kept')).toEqual([{ n: 42 }]);
      await second.close();
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  }, 60_000);
});
