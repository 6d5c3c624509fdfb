// What an entry of the console's request log shows from the request's address and the answer's headers
// (request-ring.ts): the session of a request that names it only in its query string (the applicant page
// and its form), and the content type of an answer set before the answer was written (setHeader), with a
// JSON answer pretty-printed by it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { createRequestRing, tappable } from './request-ring.js';

const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey: 'ck_test_query_type_0' }] });
let close = () => {};
afterEach(() => close());

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const ring = createRequestRing({ companies: new Map([[company!.companyKey, company!]]), secrets: [], clock: manualClock(), size: 10 });
  const server = createServer(tappable, (req, res) => {
    ring.tap(req, res, { company: 'Company A' }, new URL(req.url!, 'http://x').pathname);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  return { ring, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

it('shows the session a request names only in its query string', async () => {
  const { ring, origin } = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<p>page</p>');
  });
  await fetch(`${origin}/applicant?session_token=sess_from_query_1&x=1`).then((r) => r.text());
  await fetch(`${origin}/applicant`).then((r) => r.text());
  const [without, withQuery] = ring.list(undefined);
  expect(withQuery!.entry.sessionId).toBe('sess_from_query_1');
  expect(without!.entry.sessionId).toBeNull();
});

it('shows the content type an answer set before it was written, and its JSON pretty-printed', async () => {
  const { ring, origin } = await serve((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"result":{"ok":true}}');
  });
  await fetch(`${origin}/json`, { method: 'POST', body: '{}' }).then((r) => r.text());
  const [entry] = ring.list(undefined);
  expect(entry!.entry.response).toEqual({ contentType: 'application/json', size: 22, text: '{\n  "result": {\n    "ok": true\n  }\n}', truncated: false });
});
