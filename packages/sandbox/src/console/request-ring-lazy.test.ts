// The request log costs the request path only a copy of the bodies' first bytes: an entry's bodies are
// parsed and redacted when it is read, never when a request ends or pushes the oldest entry out (that
// cost more than answering the request: issue 14's sandbox bench).
import { createServer, type ServerResponse } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { manualClock, systemClock, type Clock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { maxKeptBytes } from './redact.js';
import { createRequestRing, tappable, type LoggedRequest, type RequestRing } from './request-ring.js';

const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey: 'ck_test_lazy_0000' }] });
let close = () => {};
afterEach(() => close());

it('describes no entry while requests pass and the oldest are pushed out, only the ones read', async () => {
  // Redacting a body goes through the secrets: count how often they are gone through.
  let redactions = 0;
  const secrets = { [Symbol.iterator]: () => (redactions++, [company!.companyKey][Symbol.iterator]()) } as unknown as string[];
  const ring = createRequestRing({ companies: new Map([[company!.companyKey, company!]]), secrets, clock: manualClock(), size: 2 });
  const server = createServer(tappable, (req, res) => {
    ring.tap(req, res, { operation: 'echo', company: 'Company A' }, '/echo');
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/echo`;
  redactions = 0;
  for (let n = 0; n < 5; n++) await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) }).then((r) => r.text());
  expect(redactions).toBe(0);
  const kept = ring.list('ck_test_lazy_0000');
  expect(kept.map((item) => JSON.parse(item.entry.request.text!).n)).toEqual([4, 3]);
  expect(redactions).toBeGreaterThan(0);
});

// What the ring keeps of a request's bodies (copies of their first bytes, made as they pass) shows each as
// it was sent: bodies reused by their writer, several requests on one connection, bodies over the bound.
const key = company!.companyKey;
async function serve(ring: RequestRing, answer: (body: Buffer, res: ServerResponse) => void) {
  const server = createServer({ ...tappable, keepAlive: true }, (req, res) => {
    ring.tap(req, res, { operation: 'echo', company: 'Company A' }, '/echo');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/echo`;
}
const ringOf = (clock: Clock = manualClock()) => createRequestRing({ companies: new Map([[key, company!]]), secrets: [key], clock, size: 10 });

it('shows an answer written as bytes as it was sent, even when its writer reuses the buffer afterwards', async () => {
  const ring = ringOf();
  const reused = Buffer.alloc(12);
  const url = await serve(ring, (body, res) => {
    reused.write(`{"n":${JSON.parse(body.toString()).n}}`.padEnd(12, ' '));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(reused);
  });
  for (const n of [1, 2, 3]) await fetch(url, { method: 'POST', body: JSON.stringify({ n }) }).then((r) => r.text());
  expect(ring.list(key).map((item) => JSON.parse(item.entry.response.text!).n)).toEqual([3, 2, 1]);
});

it('shows each request of one connection with its own body, its size and its key redacted', async () => {
  const ring = ringOf();
  const url = await serve(ring, (body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    // A string answer with characters of several UTF-8 bytes: its size is counted in bytes.
    res.end(JSON.stringify({ echoed: JSON.parse(body.toString()).n, note: 'Zürich €' }));
  });
  const sent: string[] = [];
  for (const n of [1, 2, 3]) {
    const body = JSON.stringify({ n, companyKey: key, pad: 'é'.repeat(n * 10) });
    sent.push(body);
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text());
  }
  const entries = ring.list(key).map((item) => item.entry).reverse();
  expect(entries.map((entry) => JSON.parse(entry.request.text!).n)).toEqual([1, 2, 3]);
  expect(entries.map((entry) => entry.request.size)).toEqual(sent.map((body) => Buffer.byteLength(body)));
  expect(entries.map((entry) => JSON.parse(entry.request.text!).companyKey)).toEqual(['[redacted]', '[redacted]', '[redacted]']);
  expect(entries.map((entry) => entry.response.size)).toEqual([1, 2, 3].map((n) => Buffer.byteLength(JSON.stringify({ echoed: n, note: 'Zürich €' }))));
  expect(entries.every((entry) => !entry.request.text!.includes(key))).toBe(true);
});

it('keeps at most maxKeptBytes of a body sent or answered in one piece, and counts the whole', async () => {
  const ring = ringOf();
  const big = 'x'.repeat(maxKeptBytes * 2);
  const url = await serve(ring, (_body, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(big);
  });
  await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: big }).then((r) => r.text());
  const entry: LoggedRequest = ring.list(key)[0]!.entry;
  expect([entry.request.size, entry.request.text!.length, entry.request.truncated]).toEqual([big.length, maxKeptBytes, true]);
  expect([entry.response.size, entry.response.text!.length, entry.response.truncated]).toEqual([big.length, maxKeptBytes, true]);
});

it('shows an answer written in pieces whole, the first piece included', async () => {
  const ring = ringOf();
  const url = await serve(ring, (_body, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first ');
    res.write(Buffer.from('second '));
    res.end('third');
  });
  await fetch(url, { method: 'POST', body: 'x' }).then((r) => r.text());
  expect(ring.list(key)[0]!.entry.response).toMatchObject({ text: 'first second third', size: 18 });
});

it('gives the time a request came, by the system clock', async () => {
  const ring = ringOf(systemClock);
  const url = await serve(ring, (_body, res) => res.end('ok'));
  const before = Date.now();
  await fetch(url, { method: 'POST', body: 'x' }).then((r) => r.text());
  const after = Date.now();
  const time = Date.parse(ring.list(key)[0]!.entry.time);
  expect(time).toBeGreaterThanOrEqual(before);
  expect(time).toBeLessThanOrEqual(after);
});
