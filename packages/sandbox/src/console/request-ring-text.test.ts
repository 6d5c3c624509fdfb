// An answer written as strings (how the sandbox writes its JSON) is logged as written, whatever its
// pieces: every character shown, every byte counted, and an entry read before its place in the ring is
// reused stays as it was.
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { maxKeptBytes } from './redact.js';
import { createRequestRing, tappable } from './request-ring.js';

const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey: 'ck_test_ring_text_0000' }] });
const key = company!.companyKey;
let close = () => {};
afterEach(() => close());

/** A server whose answer to `/?case=name` is written as `answers[name]` says: strings and buffers, in turn. */
async function served(answers: Record<string, (string | Buffer)[]>, size?: number) {
  const ring = createRequestRing({ companies: new Map([[key, company!]]), secrets: [key], clock: manualClock(), size });
  const server = createServer(tappable, (req, res) => {
    ring.tap(req, res, { operation: 'echo', company: 'Company A' }, '/echo');
    req.resume();
    req.on('end', () => {
      const parts = answers[new URL(req.url!, 'http://x').searchParams.get('case')!]!;
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      for (const part of parts.slice(0, -1)) res.write(part);
      res.end(parts.at(-1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/echo`;
  const send = (name: string) => fetch(`${base}?case=${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ companyKey: key }) }).then((r) => r.text());
  return { ring, send };
}

const text = (parts: (string | Buffer)[]) => parts.map((part) => part.toString()).join('');

describe('the request ring: answers written as strings', () => {
  const answers = {
    short: ['{"result":"blk_0123456789abcdef"}'],
    // Characters of two and three UTF-8 bytes: the size counts bytes, not characters.
    wide: [`{"name":"Ærø — ${'€'.repeat(300)}"}`],
    twoStrings: ['{"a":', '"two strings"}'],
    stringThenBuffer: ['{"a":', Buffer.from('"then bytes"}')],
    emptyFirst: ['', '{"after":"an empty string"}'],
    longer: [`{"x":"${'y'.repeat(1024)}"}`],
    longCut: [`{"x":"${'z'.repeat(maxKeptBytes * 2)}"}`],
  };

  it('shows each answer as written and counts all its bytes', async () => {
    const { ring, send } = await served(answers);
    for (const name of Object.keys(answers)) await send(name);
    const entries = ring.list(key).reverse().map((item) => item.entry);
    for (const [at, name] of Object.keys(answers).entries()) {
      const written = text(answers[name as keyof typeof answers]);
      const { response } = entries[at]!;
      expect(response.size, name).toBe(Buffer.byteLength(written));
      if (name === 'longCut') {
        expect(response.truncated).toBe(true);
        expect(written.startsWith(response.text!.slice(0, 100))).toBe(true);
      } else {
        expect(response.truncated, name).toBe(false);
        expect(JSON.parse(response.text!), name).toEqual(JSON.parse(written));
      }
    }
  });

  it("reads a session's ID from an answer kept as a string", async () => {
    const { ring, send } = await served({ session: ['{"id":"6f1c2a7e-session-0001","status":"created"}'] });
    await send('session');
    expect(ring.list(key)[0]!.entry.sessionId).toBe('6f1c2a7e-session-0001');
  });

  it('keeps an entry read before its place is reused as it was, and one read after as the new request', async () => {
    const { ring, send } = await served({ first: ['{"n":"first"}'], second: ['{"n":"second"}'] }, 1);
    await send('first');
    const early = ring.list(key)[0]!;
    await send('second');
    expect(JSON.parse(early.entry.response.text!)).toEqual({ n: 'first' });
    expect(JSON.parse(ring.list(key)[0]!.entry.response.text!)).toEqual({ n: 'second' });
  });
});
