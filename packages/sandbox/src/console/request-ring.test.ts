// The request log's bounds: a fixed number of entries (the oldest go), the first 16 KiB of a body kept.
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { maxKeptBytes } from './redact.js';
import { createRequestRing, ringSize, tappable } from './request-ring.js';

const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey: 'ck_test_ring_0000' }] });
let close = () => {};
afterEach(() => close());

async function served(size?: number) {
  const ring = createRequestRing({ companies: new Map([[company!.companyKey, company!]]), secrets: [company!.companyKey], clock: manualClock(), size });
  const server = createServer(tappable, (req, res) => {
    ring.tap(req, res, { operation: 'echo', company: 'Company A' }, '/echo');
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => server.close();
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/echo`;
  return { ring, send: (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text()) };
}

describe('the request ring', () => {
  it(`keeps the latest ${ringSize} entries by default, and forgets the oldest beyond its size`, async () => {
    expect(ringSize).toBe(1000);
    const { ring, send } = await served(3);
    for (const n of [1, 2, 3, 4]) await send(JSON.stringify({ n }));
    const kept = ring.list('ck_test_ring_0000');
    expect(kept.map((item) => JSON.parse(item.entry.request.text!).n)).toEqual([4, 3, 2]);
    expect(ring.get(kept[2]!.entry.id)).toBeDefined();
    expect(ring.get('req_000001')).toBeUndefined();
  });

  it('keeps the first 16 KiB of a body, says it was cut, and counts all of it', async () => {
    const { ring, send } = await served();
    const long = JSON.stringify({ text: 'x'.repeat(maxKeptBytes * 2), companyKey: 'ck_test_ring_0000' });
    await send(long);
    const { entry } = ring.list('ck_test_ring_0000')[0]!;
    expect(entry.request).toMatchObject({ size: Buffer.byteLength(long), truncated: true });
    expect(Buffer.byteLength(entry.request.text!)).toBeLessThanOrEqual(maxKeptBytes);
  });
});
