// firstHeader (body.ts) reads content-type and content-length from the raw header pairs: it must give what
// Node's `request.headers` gives for them, whatever their spelling, and the first of repeated ones.
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstHeader } from './body.js';

let seen: ((request: IncomingMessage) => void) | undefined;
const server = createServer((request, response) => {
  seen?.(request);
  request.resume();
  response.end('ok');
});
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Sends a request with these header lines as written; resolves with what firstHeader and Node's headers give. */
function sent(headerLines: string[]) {
  return new Promise<{ ours: (string | undefined)[]; node: (string | undefined)[] }>((resolve, reject) => {
    seen = (request) => {
      const names = ['content-type', 'content-length'] as const;
      // firstHeader first: Node builds `headers` on its first read.
      const ours = names.map((name) => firstHeader(request, name));
      resolve({ ours, node: names.map((name) => request.headers[name] as string | undefined) });
    };
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1', () => socket.end(`POST /x HTTP/1.1\r\nHost: x\r\n${headerLines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n{}`));
    socket.on('error', reject);
    socket.resume();
  });
}

describe('firstHeader', () => {
  it.each([
    [['Content-Type: application/json', 'Content-Length: 2']],
    [['content-type: application/json; charset=utf-8', 'content-length: 2']],
    [['CONTENT-TYPE: text/plain', 'CoNtEnT-LeNgTh: 2']],
    [['Content-Type: application/json', 'Content-Type: text/plain', 'Content-Length: 2']],
    [['X-Content-Type: text/plain', 'Content-Length: 2']],
    [['Content-Length: 2']],
  ])('gives what request.headers gives for %j', async (lines) => {
    const { ours, node } = await sent(lines);
    expect(ours).toEqual(node);
  });
});
