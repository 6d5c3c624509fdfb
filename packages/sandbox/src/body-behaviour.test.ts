// Request bodies as a client sends them: the size limit at its exact edge, counted over every chunk of a
// chunked body and over every field and file of a form; a declared length over the limit answered before
// the body is sent; the content types that count as JSON or form data; JSON that is not an object. A body
// refused for its size closes the connection (it was left unread); one refused for its content does not.
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { raw, statusOf } from './hostile.test-helper.js';
import { solidJpeg } from './media/jpeg.js';
import { sampleMp4 } from './media/mp4.js';
import { keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const maxBodyBytes = 400;
const maxUploadBodyBytes = 4_000;
const start = () => startTestSandbox({ limits: { maxBodyBytes, maxUploadBodyBytes } });

type Answer = { status: number; headers: IncomingHttpHeaders; json: any };

/**
 * POSTs `chunks` one write at a time, a few ms apart, so that the server reads them as separate chunks:
 * chunked transfer encoding unless the headers give a content length. Stops writing once answered. Over
 * a kept-alive connection, so that a `connection: close` in the answer is the server's own.
 */
function send(url: string, path: string, chunks: (string | Buffer)[], headers: Record<string, string | number>, gapMs = 5) {
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    const agent = new Agent({ keepAlive: true });
    const req = request(`${url}${path}`, { method: 'POST', headers, agent }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        agent.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined });
      });
    });
    // Writing on after an early answer may fail (the server closed): the answer is what counts.
    req.on('error', (error) => !answered && reject(error));
    void (async () => {
      for (const chunk of chunks) {
        if (answered) return;
        req.write(chunk);
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      req.end();
    })();
  });
}

/** A begin body of exactly `size` bytes: spaces before its closing brace. */
const beginOfSize = (size: number) => {
  const text = JSON.stringify({ companyKey: keyA });
  return `${text.slice(0, -1)}${' '.repeat(size - text.length)}}`;
};
const pieces = (text: string, count: number) => Array.from({ length: count }, (_, i) => text.slice((i * text.length) / count, ((i + 1) * text.length) / count));
const json = { 'content-type': 'application/json' };
const refused = { argumentError: 'wrong-parameters' };

describe('a JSON body', () => {
  it('of exactly the limit is read; one byte more is refused and the connection closed, with a declared length', async () => {
    t = await start();
    const fits = beginOfSize(maxBodyBytes);
    const ok = await send(t.url, '/begin', [fits], { ...json, 'content-length': maxBodyBytes });
    expect(ok.status).toBe(200);
    expect(ok.json.id).toMatch(/^sess_/);
    expect(ok.headers.connection).not.toBe('close');

    const over = await send(t.url, '/begin', [beginOfSize(maxBodyBytes + 1)], { ...json, 'content-length': maxBodyBytes + 1 });
    expect([over.status, over.json, over.headers.connection]).toEqual([400, refused, 'close']);
  });

  it('sent in chunks is counted over all of them: four chunks under the limit each, over it together, are refused', async () => {
    t = await start();
    const fits = await send(t.url, '/begin', pieces(beginOfSize(maxBodyBytes), 4), json);
    expect(fits.status).toBe(200);
    expect(fits.json.id).toMatch(/^sess_/);

    const over = await send(t.url, '/begin', pieces(beginOfSize(maxBodyBytes + 1), 4), json);
    expect([over.status, over.json, over.headers.connection]).toEqual([400, refused, 'close']);
    const far = await send(t.url, '/begin', pieces(beginOfSize(4 * maxBodyBytes - 40), 4), json);
    expect([far.status, far.json, far.headers.connection]).toEqual([400, refused, 'close']);
  });

  it('declared over the limit is answered at once, before any of it is sent', async () => {
    t = await start();
    const answer = await raw(t.url, `POST /begin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${maxBodyBytes + 1}\r\n\r\n`, 4_000);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain(JSON.stringify(refused));
  });

  it.each([
    ['application/json; charset=utf-8'],
    ['Application/JSON'],
    ['  application/json ;charset=UTF-8'],
    ['application/vnd.api+json'],
  ])('with content type %j is read as JSON', async (type) => {
    t = await start();
    const answer = await send(t.url, '/begin', [JSON.stringify({ companyKey: keyA })], { 'content-type': type });
    expect(answer.status).toBe(200);
    expect(answer.json.id).toMatch(/^sess_/);
  });

  it.each([['text/plain'], ['application/jsonp'], ['multipart/form-data; boundary=x'], ['']])('with content type %j is refused, and the connection stays open', async (type) => {
    t = await start();
    const answer = await send(t.url, '/begin', [JSON.stringify({ companyKey: keyA })], type ? { 'content-type': type } : {});
    expect([answer.status, answer.json]).toEqual([400, refused]);
    expect(answer.headers.connection).not.toBe('close');
  });

  it.each([['null'], ['42'], ['"text"'], ['true'], ['false'], ['[]'], [`[${JSON.stringify({ companyKey: keyA })}]`], ['{"companyKey":']])('%s is refused as not a JSON object', async (body) => {
    t = await start();
    const answer = await send(t.url, '/begin', [body], json);
    expect([answer.status, answer.json]).toEqual([400, refused]);
    expect(answer.headers.connection).not.toBe('close');
  });
});

describe('a JSON upload (its file in base64)', () => {
  const upload = { file: Buffer.from(sampleMp4('upload')).toString('base64') };
  /** A check-spoofing body of exactly `size` bytes: spaces before its closing brace. */
  const uploadOfSize = (size: number) => {
    const text = JSON.stringify({ companyKey: keyA, ...upload });
    return `${text.slice(0, -1)}${' '.repeat(size - text.length)}}`;
  };
  const base = JSON.stringify({ companyKey: keyA, ...upload }).length;
  const limit = base + 500;
  const startUpload = (limits: Record<string, number> = {}) => startTestSandbox({ limits: { maxBodyBytes: 20_000, maxUploadBodyBytes: limit, ...limits } });

  it('of exactly the upload limit is read, in one piece or in chunks; one byte more is refused and the connection closed', async () => {
    t = await startUpload();
    const ok = await send(t.url, '/check-spoofing', [uploadOfSize(limit)], { ...json, 'content-length': limit });
    expect(ok.status).toBe(200);
    expect(ok.json.result).toBeDefined();
    expect((await send(t.url, '/check-spoofing', pieces(uploadOfSize(limit), 5), json)).status).toBe(200);
    for (const chunks of [[uploadOfSize(limit + 1)], pieces(uploadOfSize(limit + 1), 5)]) {
      const over = await send(t.url, '/check-spoofing', chunks, chunks.length === 1 ? { ...json, 'content-length': limit + 1 } : json);
      expect([over.status, over.json, over.headers.connection]).toEqual([400, refused, 'close']);
    }
  });

  it('declared over the limit is answered at once, before any of it is sent', async () => {
    t = await startUpload();
    const answer = await raw(t.url, `POST /check-spoofing HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${limit + 1}\r\n\r\n`, 4_000);
    expect(statusOf(answer)).toBe(400);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('whose fields besides its files are over the body limit is refused and the connection closed', async () => {
    t = await startUpload({ maxBodyBytes: base + 1_000, maxUploadBodyBytes: 1_000_000 });
    expect((await send(t.url, '/check-spoofing', [uploadOfSize(base + 10)], json)).status).toBe(200);
    const over = await send(t.url, '/check-spoofing', pieces(uploadOfSize(base + 3_000), 3), json);
    expect([over.status, over.json, over.headers.connection]).toEqual([400, refused, 'close']);
  });

  it.each([['{"companyKey":'], ['[]'], ['null'], ['42']])('%s is refused, and the connection stays open', async (body) => {
    t = await startUpload();
    const answer = await send(t.url, '/check-spoofing', [body], json);
    expect([answer.status, answer.json]).toEqual([400, refused]);
    expect(answer.headers.connection).not.toBe('close');
  });

  it('with a content type that is not JSON is refused, and the connection stays open', async () => {
    t = await startUpload();
    const answer = await send(t.url, '/check-spoofing', [uploadOfSize(base)], { 'content-type': 'text/plain' });
    expect([answer.status, answer.json]).toEqual([400, refused]);
    expect(answer.headers.connection).not.toBe('close');
  });
});

/** A multipart body of fields and files, and its content type. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = 'test-boundary-0000';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** A JSON text of `size` characters: an empty object padded with spaces. */
const paddedObject = (size: number) => `{${' '.repeat(size - 2)}}`;

describe('a form body', () => {
  // The limit counts what the fields and files hold, not the multipart framing around them.
  const general = (total: number) => paddedObject(total - keyA.length);

  it('whose fields hold exactly the limit together is read; one character more is refused and the connection closed', async () => {
    t = await start();
    const fits = multipart([{ name: 'company_key', value: keyA }, { name: 'general', value: general(maxBodyBytes) }]);
    const ok = await send(t.url, '/external-api/begin/', [fits.body], { 'content-type': fits.type });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatch(/^sess_/);

    const over = multipart([{ name: 'company_key', value: keyA }, { name: 'general', value: general(maxBodyBytes + 1) }]);
    const answer = await send(t.url, '/external-api/begin/', [over.body], { 'content-type': over.type });
    expect([answer.status, answer.json, answer.headers.connection]).toEqual([400, refused, 'close']);
  });

  it('urlencoded is read too, and counted the same way', async () => {
    t = await start();
    const ok = await send(t.url, '/external-api/begin/', [new URLSearchParams({ company_key: keyA, general: general(maxBodyBytes) }).toString()], { 'content-type': 'application/x-www-form-urlencoded' });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatch(/^sess_/);
    const over = await send(t.url, '/external-api/begin/', [new URLSearchParams({ company_key: keyA, general: general(maxBodyBytes + 1) }).toString()], { 'content-type': 'application/x-www-form-urlencoded' });
    expect([over.status, over.json]).toEqual([400, refused]);
  });

  it('counts a file\'s bytes with the fields: a file under the upload limit with a key that takes it over is refused', async () => {
    t = await start();
    const image = solidJpeg(320, 200, 'body limit');
    expect(image.length).toBeLessThan(maxUploadBodyBytes - keyA.length);
    const fits = multipart([{ name: 'company_key', value: keyA }, { name: 'image', value: Buffer.from(image), filename: 'front.jpg', type: 'image/jpeg' }]);
    const ok = await send(t.url, '/external-api/card/front/', pieces(fits.body.toString('latin1'), 4).map((piece) => Buffer.from(piece, 'latin1')), { 'content-type': fits.type });
    expect(ok.status).toBe(200);

    // Padding the key field's neighbour so that key + file is one byte over the upload limit.
    const padding = maxUploadBodyBytes - keyA.length - image.length + 1;
    const over = multipart([{ name: 'company_key', value: keyA }, { name: 'padding', value: 'x'.repeat(padding) }, { name: 'image', value: Buffer.from(image), filename: 'front.jpg', type: 'image/jpeg' }]);
    const answer = await send(t.url, '/external-api/card/front/', [over.body], { 'content-type': over.type });
    expect([answer.status, answer.headers.connection]).toEqual([400, 'close']);
  });

  it('with a file over the limit on its own is refused as too large (the connection closed), whatever comes after it', async () => {
    t = await start();
    const big = multipart([{ name: 'image', value: Buffer.alloc(maxUploadBodyBytes + 500, 0xff), filename: 'front.jpg', type: 'image/jpeg' }]);
    const answer = await send(t.url, '/external-api/card/front/', [big.body], { 'content-type': big.type });
    expect([answer.status, answer.headers.connection]).toEqual([400, 'close']);
  });

  it.each([['application/json'], ['text/plain'], ['']])('sent as %j to a form operation is refused, and the connection stays open', async (type) => {
    t = await start();
    const answer = await send(t.url, '/external-api/begin/', [`company_key=${keyA}`], type ? { 'content-type': type } : {});
    expect([answer.status, answer.json]).toEqual([400, refused]);
    expect(answer.headers.connection).not.toBe('close');
  });
});
