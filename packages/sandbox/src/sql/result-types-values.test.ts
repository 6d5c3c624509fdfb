// The JavaScript values of result-types.ts at their edges, the same on PGlite and PostgreSQL: an int8 is a
// number up to Number.MAX_SAFE_INTEGER (and down to MIN_SAFE_INTEGER) and a BigInt one past it, either
// way as a parameter too; bytea is a Buffer, the empty one included; a json or jsonb parameter may be a
// value or JSON text (a string is taken as text, never quoted again) and comes back parsed.
// database.test.ts checks one value of each column type.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from './database.js';
import { createTestDatabase } from './pg-cluster.test-helper.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

const engines: [string, () => Promise<Database>][] = [
  ['pglite', () => openPglite()],
  ['postgres', async () => openPostgres(await createTestDatabase(inject('postgresUrl')))],
];
const max = Number.MAX_SAFE_INTEGER;

describe.each(engines)('%s', (_kind, open) => {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  }, 60_000);
  afterAll(() => db?.close());

  it('reads an int8 as a number while it is a safe integer, and as a BigInt past either end', async () => {
    const [row] = await db.query(`select ${max}::int8 as top, ${max + 1}::int8 as over, (${-max})::int8 as bottom, (${-max - 1})::int8 as under, 0::int8 as zero, count(*) as n from (values (1), (2)) v`);
    expect(row).toEqual({ top: max, over: BigInt(max) + 1n, bottom: -max, under: -BigInt(max) - 1n, zero: 0, n: 2 });
    expect([typeof row!.top, typeof row!.over, typeof row!.bottom, typeof row!.under]).toEqual(['number', 'bigint', 'number', 'bigint']);
  });

  it('takes an int8 parameter as a number or a BigInt', async () => {
    const [row] = await db.query('select $1::int8 + 1 as a, $2::int8 - 1 as b, $3::int8 as c', [41, 2n ** 60n, -(2n ** 62n)]);
    expect(row).toEqual({ a: 42, b: 2n ** 60n - 1n, c: -(2n ** 62n) });
  });

  it('reads bytea as a Buffer of its bytes, the empty one too', async () => {
    const [row] = await db.query(`select $1::bytea as given, '\\x'::bytea as empty, '\\x00ff10'::bytea as literal`, [Buffer.from([0, 1, 254, 255])]);
    expect(row).toEqual({ given: Buffer.from([0, 1, 254, 255]), empty: Buffer.alloc(0), literal: Buffer.from([0, 255, 16]) });
    expect([Buffer.isBuffer(row!.given), Buffer.isBuffer(row!.empty)]).toEqual([true, true]);
  });

  it('takes a json or jsonb parameter as a value or as JSON text, and reads it back parsed', async () => {
    const [row] = await db.query('select $1::jsonb as text_b, $2::json as text_j, $3::jsonb as value_b, $4::json as value_j, $5::jsonb as string_b', ['{"a":[1,"x"]}', '[true,null]', { a: { b: 2 } }, [1, 2.5], '"quoted"']);
    expect(row).toEqual({ text_b: { a: [1, 'x'] }, text_j: [true, null], value_b: { a: { b: 2 } }, value_j: [1, 2.5], string_b: 'quoted' });
    const [stored] = await db.query<{ kind: string }>(`select jsonb_typeof($1::jsonb) as kind`, ['{"a":1}']);
    expect(stored).toEqual({ kind: 'object' });
  });
});
