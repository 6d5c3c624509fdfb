// The request log costs the request path only a copy of the bodies' first bytes: an entry's bodies are
// parsed and redacted when it is read, never when a request ends or pushes the oldest entry out (that
// cost more than answering the request: issue 14's sandbox bench).
import { createServer } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { createRequestRing, tappable } from './request-ring.js';

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
