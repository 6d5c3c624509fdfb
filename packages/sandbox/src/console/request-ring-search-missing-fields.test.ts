// The console's search of the request log (request-ring.ts `list` with a text) matches only what an entry
// shows: an entry with no operation, no request text or no answer text is not found by a word that
// neither its path nor the fields it has hold.
import type { ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import { exchange, ringOf } from './request-ring-in-process.test-helper.js';

const a = { name: 'Company A', companyKey: 'ck_test_search_missing_a' };
const text = (body: string) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(body);
};

it('finds no entry by a word that none of the fields it has holds, when it lacks an operation, a request text or an answer text', async () => {
  const ring = ringOf([a]);
  // No operation, no body, no answer: only the path.
  await exchange(ring, { path: '/x1', trace: { company: 'Company A' } });
  // An operation and an answer, no request body.
  await exchange(ring, { path: '/x2', trace: { company: 'Company A', operation: 'opOnly' }, answer: text('ok') });
  // A request body and an answer, no operation.
  await exchange(ring, { path: '/x3', trace: { company: 'Company A' }, rawHeaders: ['Content-Type', 'text/plain'], body: [Buffer.from('bb')], answer: text('ok') });
  const found = (search: string) => ring.list(a.companyKey, { text: search }).map((item) => item.entry.path);
  for (const word of ['here', 'e', 'was', 'r']) expect({ word, found: found(word) }).toEqual({ word, found: [] });
  // What they hold is found.
  expect(found('x')).toEqual(['/x3', '/x2', '/x1']);
  expect(found('opon')).toEqual(['/x2']);
  expect(found('bb')).toEqual(['/x3']);
  expect(found('ok')).toEqual(['/x3', '/x2']);
});
