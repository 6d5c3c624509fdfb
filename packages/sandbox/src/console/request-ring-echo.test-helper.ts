// A request ring of two places tapping a server on 127.0.0.1 whose answer each test writes from the
// request's body (the request-ring-*.test.ts files): the ring, the server's URL, and its closing.
import { createServer, type ServerResponse } from 'node:http';
import { manualClock } from '../clock.js';
import { companiesFrom } from '../companies.js';
import { createRequestRing, tappable, type RequestRing } from './request-ring.js';

export async function ringBehindEcho(companyKey: string, answer: (body: Buffer, res: ServerResponse) => void): Promise<{ ring: RequestRing; url: string; close: () => void }> {
  const [company] = companiesFrom({ companies: [{ name: 'Company A', companyKey }] });
  const ring = createRequestRing({ companies: new Map([[company!.companyKey, company!]]), secrets: [], clock: manualClock(), size: 2 });
  const server = createServer(tappable, (req, res) => {
    ring.tap(req, res, { operation: 'echo', company: 'Company A' }, '/echo');
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => answer(Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ring, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/echo`, close: () => server.close() };
}
