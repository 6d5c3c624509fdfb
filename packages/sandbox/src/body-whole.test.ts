// readBody takes a body that is already whole in the request's buffer with one read(), no listeners: the
// usual request, whose body came with its headers (issue 14's bench). A body still arriving is streamed.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BadInput, readBody } from './body.js';

/** A request whose buffer holds `body` now; `complete` as the HTTP parser would set it. */
function buffered(body: string, { complete, contentLength }: { complete: boolean; contentLength?: number }) {
  const stream = new Readable({ read() {} });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (contentLength !== undefined) headers['content-length'] = String(contentLength);
  Object.assign(stream, { headers, complete });
  if (body) stream.push(Buffer.from(body));
  if (complete) stream.push(null);
  const added: string[] = [];
  const on = stream.on.bind(stream);
  stream.on = ((event: string, listener: (...args: any[]) => void) => (added.push(event), on(event, listener))) as typeof stream.on;
  return { request: stream as unknown as IncomingMessage & Readable, added };
}

const ended = (stream: Readable) => new Promise<void>((resolve) => (stream.readableEnded ? resolve() : stream.once('end', () => resolve())));

describe('readBody of a body already whole', () => {
  it('reads a parsed message with one read and no data listener, and the stream ends', async () => {
    const body = '{"a":1}';
    const { request, added } = buffered(body, { complete: true, contentLength: body.length });
    expect(await readBody(request, 'json', 100)).toEqual({ fields: { a: 1 }, files: {} });
    expect(added).not.toContain('data');
    await ended(request);
  });

  it('reads a body whose content-length is all buffered before the message end is parsed; the end follows', async () => {
    const body = '{"b":[true]}';
    const { request, added } = buffered(body, { complete: false, contentLength: body.length });
    expect(await readBody(request, 'json', 100)).toEqual({ fields: { b: [true] }, files: {} });
    expect(added).not.toContain('data');
    Object.assign(request, { complete: true });
    request.push(null);
    await ended(request);
  });

  it('streams a body that is not all there yet', async () => {
    const { request, added } = buffered('{"c":', { complete: false, contentLength: 7 });
    const read = readBody(request, 'json', 100);
    setImmediate(() => {
      request.push(Buffer.from('2}'));
      request.push(null);
    });
    expect(await read).toEqual({ fields: { c: 2 }, files: {} });
    expect(added).toContain('data');
  });

  it('refuses a whole body over the limit that had no content-length, as unread', async () => {
    const { request } = buffered(`{"d":"${'x'.repeat(200)}"}`, { complete: true });
    const error = await readBody(request, 'json', 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadInput);
    expect((error as BadInput).message).toBe('body over 100 bytes');
    expect((error as BadInput).unread).toBe(true);
  });
});
