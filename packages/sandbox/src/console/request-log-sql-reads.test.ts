// The request log in PostgreSQL (request-log-sql.ts) as a console reads it: a company's requests (or all
// of them for the admin), newest first, found by operation, status, session and text, as many as asked;
// one request by its ID; the addresses requests came from; requests written in batches (at once when a
// batch is full, else after the batch's wait, and on close), nothing taken after the close; the latest rows
// kept across batches; an open console told of each request written after it opened, until it closes.
import { expect, it } from 'vitest';
import type { Database } from '../sql/database.js';
import type { SqlRequestLog } from './request-log-sql.js';
import { logsOnTestDatabases } from './request-log-sql-logs.test-helper.js';
import { rawRequest } from './request-log-rows.test-helper.js';

const keyA = 'ck_test_log_reads_a_0000';
const keyB = 'ck_test_log_reads_b_0000';
/** A database of its own, and `count` logs on it. */
const logsOn = logsOnTestDatabases({ secrets: [keyA, keyB], batchMs: 60_000 });

const raw = rawRequest;
const numbers = (entries: { entry: { request: { text: string | null } } }[]) => entries.map((item) => JSON.parse(item.entry.request.text!).n as number);

it('lists a company\'s requests or everyone\'s, newest first, by operation, status, session and text, as many as asked', async () => {
  const [log] = await logsOn(1);
  log!.record(raw(1), keyA);
  log!.record(raw(2, { operation: 'getResult', path: '/result', body: { n: 2, sessionId: 'sess_found_1' } }), keyA);
  log!.record(raw(3, { status: 400, answer: { argumentError: 'Wrong-Parameters' } }), keyA);
  log!.record(raw(4), keyB);
  log!.record(raw(5, { sourceIp: '10.0.0.5' }), undefined);
  expect(numbers(await log!.list(keyA))).toEqual([3, 2, 1]);
  expect(numbers(await log!.list(keyB, {}))).toEqual([4]);
  expect(numbers(await log!.list(undefined, {}))).toEqual([5, 4, 3, 2, 1]);
  expect(numbers(await log!.list(keyA, { operation: 'getResult' }))).toEqual([2]);
  expect(numbers(await log!.list(keyA, { status: 400 }))).toEqual([3]);
  expect(numbers(await log!.list(keyA, { status: 200, operation: 'begin' }))).toEqual([1]);
  expect(numbers(await log!.list(keyA, { sessionId: 'sess_found_1' }))).toEqual([2]);
  expect(numbers(await log!.list(keyA, { sessionId: 'sess_other' }))).toEqual([]);
  // Text, in any case, in the path, the operation, the request or the answer.
  expect(numbers(await log!.list(keyA, { text: 'WRONG-parameters' }))).toEqual([3]);
  expect(numbers(await log!.list(keyA, { text: '/RESULT' }))).toEqual([2]);
  expect(numbers(await log!.list(keyA, { text: 'getresult' }))).toEqual([2]);
  expect(numbers(await log!.list(keyA, { text: '"n": 1' }))).toEqual([1]);
  expect(numbers(await log!.list(undefined, { limit: 2 }))).toEqual([5, 4]);
  expect(numbers(await log!.list(keyA, { text: 'begin', limit: 1 }))).toEqual([3]);
  // The limit counts the requests found, not the newest ones read.
  expect(numbers(await log!.list(keyA, { text: '/result', limit: 1 }))).toEqual([2]);
  expect(numbers(await log!.list(keyA, { sessionId: 'sess_found_1', limit: 1 }))).toEqual([2]);
}, 60_000);

it('lists a hundred requests when no number is asked', async () => {
  const [log] = await logsOn(1);
  for (let n = 1; n <= 102; n++) log!.record(raw(n), keyA);
  const listed = numbers(await log!.list(keyA));
  expect(listed).toHaveLength(100);
  expect([listed[0], listed[99]]).toEqual([102, 3]);
  expect(numbers(await log!.list(keyA, { text: 'begin' }))).toHaveLength(100);
}, 60_000);

it('gives one request by its ID, with its company and address, and nothing for an ID it does not hold', async () => {
  const [log] = await logsOn(1);
  for (let n = 100; n < 110; n++) log!.record(raw(n), keyB);
  log!.record(raw(1, { sourceIp: '10.0.0.1' }), keyA);
  log!.record(raw(2), undefined);
  const [second, first] = await log!.list(undefined, {});
  expect(first!.entry.id).toMatch(/^req_\d\d$/);
  const found = await log!.get(first!.entry.id);
  expect(found).toMatchObject({ companyKey: keyA, sourceIp: '10.0.0.1', entry: { id: first!.entry.id, sourceIp: '10.0.0.1', operation: 'begin', status: 200 } });
  expect(first!.entry.id).toMatch(/^req_\d+$/);
  expect(await log!.get(second!.entry.id)).toMatchObject({ companyKey: undefined });
  for (const id of ['req_999999', 'req_', 'req_x', `x${first!.entry.id}`, `${first!.entry.id}x`, 'req_1234567890123456789']) expect(await log!.get(id), id).toBeUndefined();
}, 60_000);

it('gives the addresses of a company\'s requests, or of everyone\'s', async () => {
  const [log] = await logsOn(1);
  log!.record(raw(1, { sourceIp: '10.0.0.1' }), keyA);
  log!.record(raw(2, { sourceIp: '10.0.0.1' }), keyA);
  log!.record(raw(3, { sourceIp: '10.0.0.2' }), keyB);
  expect(await log!.addresses(keyA)).toEqual(new Set(['10.0.0.1']));
  expect(await log!.addresses(undefined)).toEqual(new Set(['10.0.0.1', '10.0.0.2']));
}, 60_000);

it('writes a batch once it is full, else after its wait, and what waits when it closes; nothing recorded after', async () => {
  const [writer, reader] = await logsOn(2, { batchRows: 3 });
  writer!.record(raw(1), keyA);
  writer!.record(raw(2), keyA);
  // Another instance sees only what was written: not yet.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(numbers(await reader!.list(keyA))).toEqual([]);
  writer!.record(raw(3), keyA);
  await expect.poll(async () => numbers(await reader!.list(keyA)), { timeout: 5000 }).toEqual([3, 2, 1]);
  writer!.record(raw(4), keyA);
  writer!.close();
  await expect.poll(async () => numbers(await reader!.list(keyA)), { timeout: 5000 }).toEqual([4, 3, 2, 1]);
  writer!.record(raw(5), keyA);
  await writer!.flushed();
  expect(numbers(await reader!.list(keyA))).toEqual([4, 3, 2, 1]);

  const [timed, other] = await logsOn(2, { batchMs: 50 });
  timed!.record(raw(6), keyA);
  await expect.poll(async () => numbers(await other!.list(keyA)), { timeout: 5000 }).toEqual([6]);
  // The next request starts a new wait.
  timed!.record(raw(7), keyA);
  await expect.poll(async () => numbers(await other!.list(keyA)), { timeout: 5000 }).toEqual([7, 6]);
}, 60_000);

it('keeps the latest rows across batches', async () => {
  const [log] = await logsOn(1, { size: 3 });
  for (const batch of [[1, 2], [3, 4], [5], [6, 7, 8, 9]]) {
    for (const n of batch) log!.record(raw(n), keyA);
    await log!.flushed();
  }
  expect(numbers(await log!.list(keyA, { limit: 10 }))).toEqual([9, 8, 7]);
}, 60_000);

it('tells a console opened on an empty log of the first request', async () => {
  const [writer, reader] = await logsOn(2, { pollMs: 20 });
  const heard: (string | undefined)[] = [];
  const stop = reader!.subscribe((entry) => heard.push(entry.companyKey));
  try {
    await new Promise((resolve) => setTimeout(resolve, 200));
    writer!.record(raw(1), keyA);
    await writer!.flushed();
    await expect.poll(() => heard, { timeout: 5000 }).toEqual([keyA]);
  } finally {
    stop();
  }
}, 60_000);

it('tells an open console of each request written after it opened, and stops when it closes', async () => {
  const [writer, reader] = await logsOn(2, { pollMs: 20 });
  writer!.record(raw(1), keyA);
  await writer!.flushed();
  const heard: (string | undefined)[] = [];
  const stop = reader!.subscribe((entry) => heard.push(entry.companyKey));
  const also: (string | undefined)[] = [];
  const stopAlso = reader!.subscribe((entry) => also.push(entry.companyKey));
  await new Promise((resolve) => setTimeout(resolve, 200));
  writer!.record(raw(2), keyA);
  writer!.record(raw(3), undefined);
  await writer!.flushed();
  await expect.poll(() => heard, { timeout: 5000 }).toEqual([keyA, undefined]);
  expect(also).toEqual([keyA, undefined]);
  stopAlso();
  writer!.record(raw(4), keyB);
  await writer!.flushed();
  await expect.poll(() => heard, { timeout: 5000 }).toEqual([keyA, undefined, keyB]);
  expect(also).toEqual([keyA, undefined]);
  stop();
  writer!.record(raw(5), keyB);
  await writer!.flushed();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(heard).toEqual([keyA, undefined, keyB]);
}, 60_000);

it('creates its table once when several instances start on a new database at once', async () => {
  const started = await logsOn(6);
  started.forEach((log, n) => log.record(raw(n), keyA));
  await Promise.all(started.map((log) => log.flushed()));
  // Each instance wrote its request (in the order their batches came), and each reads all six.
  const read = (await Promise.all(started.map((log) => log.list(keyA)))).map((entries) => numbers(entries).sort());
  expect(read).toEqual(started.map(() => [0, 1, 2, 3, 4, 5]));
}, 60_000);

it('tries again to create its table when the first try failed', async () => {
  let failures = 1;
  const [log] = (await logsOn(1, { secrets: [keyA] }, (database): Database => ({
    ...database,
    kind: database.kind,
    query: (text, params) => database.query(text, params),
    transaction: (work) => (failures-- > 0 ? Promise.reject(new Error('the server went away')) : database.transaction(work)),
    close: () => database.close(),
  }))) as [SqlRequestLog];
  await expect(log.list(keyA)).rejects.toThrow('the server went away');
  log.record(raw(1), keyA);
  expect(numbers(await log.list(keyA))).toEqual([1]);
}, 60_000);
