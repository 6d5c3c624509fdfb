// What the console reads from its request log besides the entries' fields: a search by the operation's
// name or the answer's text, the addresses requests came from (the rate-limit page), new entries as they
// come (the page's event stream) until a page stops listening, each request handed on to the shared log
// (request-log-sql.ts), and the refusal to watch a request of a server made without `tappable`.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { expect, it } from 'vitest';
import { tappable, type Raw } from './request-ring.js';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

const a = { name: 'Company A', companyKey: 'ck_test_reading_a' };
const b = { name: 'Company B', companyKey: 'ck_test_reading_b' };
const text = (body: string) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(body);
};

it("finds a request by its operation's name or by its answer's text, in any case", async () => {
  const ring = ringOf([a]);
  await exchange(ring, { path: '/p1', trace: { operation: 'beginSession', company: 'Company A' } });
  await exchange(ring, { path: '/p2', trace: { company: 'Company A' }, answer: text('Answer With Needle') });
  await exchange(ring, { path: '/p3', trace: { company: 'Company A' } });
  const found = (search: string) => ring.list(a.companyKey, { text: search }).map((item) => item.entry.path);
  expect(found('BEGINsession')).toEqual(['/p1']);
  expect(found('with needle')).toEqual(['/p2']);
  expect(found('/p3')).toEqual(['/p3']);
});

it('gives the operator every address requests came from, and a company only those of its own requests', async () => {
  const ring = ringOf([a, b]);
  await exchange(ring, { ip: '203.0.113.1', trace: { company: 'Company A' } });
  await exchange(ring, { ip: '203.0.113.2', trace: { company: 'Company B' } });
  await exchange(ring, { ip: '203.0.113.3', trace: {} });
  expect([...ring.addresses(undefined)].sort()).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.3']);
  expect([...ring.addresses(a.companyKey)]).toEqual(['203.0.113.1']);
  expect([...ring.addresses(b.companyKey)]).toEqual(['203.0.113.2']);
});

it('tells a listener of each new entry until it unsubscribes', async () => {
  const ring = ringOf([a]);
  const heard: string[] = [];
  const unsubscribe = ring.subscribe((item) => heard.push(item.entry.path));
  await exchange(ring, { path: '/heard' });
  unsubscribe();
  await exchange(ring, { path: '/after' });
  expect(heard).toEqual(['/heard']);
});

it('hands each request to the shared log as kept, with the key of its company', async () => {
  const recorded: [Raw, string | undefined][] = [];
  const ring = ringOf([a], { onRecord: (raw, key) => recorded.push([raw, key]) });
  await exchange(ring, { method: 'PUT', path: '/shared', url: '/shared?x=1', trace: { company: 'Company A', operation: 'op' }, rawHeaders: ['Content-Type', 'text/plain'], body: [Buffer.from('sent')], answer: text('answered') });
  await exchange(ring, { path: '/nobody' });
  expect(recorded.map(([raw, key]) => [raw.method, raw.path, raw.operation, raw.query, raw.requestBytes.toString(), raw.responseBytes.toString(), raw.responseSize, key])).toEqual([
    ['PUT', '/shared', 'op', 'x=1', 'sent', 'answered', 8, a.companyKey],
    ['POST', '/nobody', null, '', '', '', 0, undefined],
  ]);
});

it('refuses to watch a request or an answer of a server made without tappable', () => {
  const ring = ringOf([]);
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  const message = 'The request ring watches the requests of a server made with createServer(tappable, ...)';
  expect(() => ring.watch(req, res, {}, '/')).toThrow(new TypeError(message));
  expect(() => ring.tap(req, res, {}, '/')).toThrow(new TypeError(message));
  // A tappable request with a plain answer, and the other way round: both are refused.
  const tappedReq = new tappable.IncomingMessage(new Socket());
  expect(() => ring.watch(tappedReq, new ServerResponse(tappedReq), {}, '/')).toThrow(new TypeError(message));
  expect(() => ring.watch(req, new tappable.ServerResponse(req), {}, '/')).toThrow(new TypeError(message));
});
