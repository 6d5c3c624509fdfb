// readBody on its own, fed a request stream: what it reads, and for each bad body the refusal it gives,
// its reason (for whoever debugs a 400) and whether the body was left unread (the server then closes the
// connection). The HTTP side of the same rules is in body-behaviour.test.ts.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BadInput, readBody, type UploadReading } from './body.js';

/** A request of `headers` whose body is `chunks`, then its end (or an error when `fail` is set). */
function requestOf(headers: Record<string, string>, chunks: (string | Buffer)[], fail = false): IncomingMessage {
  const stream = new PassThrough();
  Object.assign(stream, { headers });
  setImmediate(() => {
    for (const chunk of chunks) stream.write(chunk);
    if (fail) stream.destroy(new Error('aborted by the client'));
    else stream.end();
  });
  return stream as unknown as IncomingMessage;
}

async function refusalOf(promise: Promise<unknown>): Promise<{ message: string; unread: boolean } | 'read'> {
  try {
    await promise;
    return 'read';
  } catch (error) {
    expect(error).toBeInstanceOf(BadInput);
    return { message: (error as BadInput).message, unread: (error as BadInput).unread };
  }
}

const json = { 'content-type': 'application/json' };
const upload: UploadReading = { bigFields: new Set(['file']), bigString: 64, maxSkeletonBytes: 100 };

describe('readBody of JSON', () => {
  it('reads an object, in one chunk or many', async () => {
    expect(await readBody(requestOf(json, ['{"a":', '1,"b"', ':[true]}']), 'json', 100)).toEqual({ fields: { a: 1, b: [true] }, files: {} });
    expect(await readBody(requestOf({ 'content-type': 'application/problem+json' }, ['{}']), 'json', 100)).toEqual({ fields: {}, files: {} });
  });

  it.each([
    ['a body over the limit', json, ['x'.repeat(60), 'x'.repeat(41)], { message: 'body over 100 bytes', unread: true }],
    ['a declared length over the limit', { ...json, 'content-length': '101' }, [], { message: 'body over 100 bytes', unread: true }],
    ['another content type', { 'content-type': 'text/plain' }, ['{}'], { message: 'expected application/json, got text/plain', unread: false }],
    ['no content type', {}, ['{}'], { message: 'expected application/json, got no content type', unread: false }],
    ['malformed JSON', json, ['{"a":'], { message: 'malformed JSON', unread: false }],
    ['an array', json, ['[]'], { message: 'the body is not a JSON object', unread: false }],
    ['null', json, ['null'], { message: 'the body is not a JSON object', unread: false }],
    ['a number', json, ['7'], { message: 'the body is not a JSON object', unread: false }],
  ])('refuses %s', async (_name, headers, chunks, refusal) => {
    expect(await refusalOf(readBody(requestOf(headers, chunks), 'json', 100))).toEqual(refusal);
  });

  it('of exactly the limit is read', async () => {
    expect((await readBody(requestOf({ ...json, 'content-length': '100' }, [`{${' '.repeat(98)}}`]), 'json', 100)).fields).toEqual({});
  });

  it('refuses a request the client aborts, as unread', async () => {
    expect(await refusalOf(readBody(requestOf(json, ['{"a":']), 'json', 100).then(() => undefined))).toEqual({ message: 'malformed JSON', unread: false });
    expect(await refusalOf(readBody(requestOf(json, ['{"a":'], true), 'json', 100))).toEqual({ message: 'the request was aborted', unread: true });
  });
});

describe('readBody of an upload\'s JSON', () => {
  const file = 'A'.repeat(200);

  it('reads the fields and the file set aside', async () => {
    expect((await readBody(requestOf(json, [`{"k":"v","file":"${file.slice(0, 50)}`, `${file.slice(50)}"}`]), 'json', 1_000, upload)).fields).toEqual({ k: 'v', file });
  });

  it('reads a body of a JSON media type with a suffix (+json) the same way, with the same bounds', async () => {
    const problemJson = { 'content-type': 'application/problem+json' };
    expect((await readBody(requestOf(problemJson, [`{"file":"${file}"}`]), 'json', 1_000, upload)).fields).toEqual({ file });
    expect(await refusalOf(readBody(requestOf(problemJson, [`{${' '.repeat(120)}"file":"${file.slice(100)}"}`]), 'json', 300, upload))).toEqual({
      message: 'the fields around the files take over 100 bytes',
      unread: true,
    });
  });

  it.each([
    ['a body over the limit', json, [`{"file":"${file}`, `${file}"}`], { message: 'body over 300 bytes', unread: true }],
    ['a declared length over the limit', { ...json, 'content-length': '301' }, [], { message: 'body over 300 bytes', unread: true }],
    ['fields around the file over their bound', json, [`{${' '.repeat(120)}"file":"${file.slice(100)}"}`], { message: 'the fields around the files take over 100 bytes', unread: true }],
    ['a long string that is not a file', json, [`{"k":"${file}"}`], { message: 'malformed JSON', unread: false }],
    ['malformed JSON', json, [`{"file":"${file}"`], { message: 'malformed JSON', unread: false }],
    ['an array', json, ['[]'], { message: 'the body is not a JSON object', unread: false }],
    ['null', json, ['null'], { message: 'the body is not a JSON object', unread: false }],
    ['a number', json, ['7'], { message: 'the body is not a JSON object', unread: false }],
  ])('refuses %s', async (_name, headers, chunks, refusal) => {
    expect(await refusalOf(readBody(requestOf(headers, chunks), 'json', 300, upload))).toEqual(refusal);
  });

  it('refuses a request the client aborts, as unread', async () => {
    expect(await refusalOf(readBody(requestOf(json, [`{"file":"${file}`], true), 'json', 300, upload))).toEqual({ message: 'the request was aborted', unread: true });
  });

  it('of another content type is read whole and refused as not JSON', async () => {
    expect(await refusalOf(readBody(requestOf({ 'content-type': 'text/plain' }, [`{"file":"${file}"}`]), 'json', 300, upload))).toEqual({ message: 'expected application/json, got text/plain', unread: false });
  });
});

describe('readBody of a form', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const multipart = (parts: string[]) => ({ headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: `${parts.map((part) => `--b\r\n${part}\r\n`).join('')}--b--\r\n` });

  it('reads fields and files', async () => {
    const { headers, body } = multipart(['content-disposition: form-data; name="a"\r\n\r\n1', 'content-disposition: form-data; name="f"; filename="x.txt"\r\ncontent-type: text/plain\r\n\r\nhello']);
    const read = await readBody(requestOf(headers, [body]), 'multipart', 100);
    expect(read.fields).toEqual({ a: '1' });
    expect(read.files).toEqual({ f: { filename: 'x.txt', mimeType: 'text/plain', bytes: Buffer.from('hello') } });
  });

  it('reads at most 100 fields and 10 files', async () => {
    const fields = Array.from({ length: 101 }, (_, i) => `f${i}=${i}`).join('&');
    expect(Object.keys((await readBody(requestOf(form, [fields]), 'multipart', 10_000)).fields)).toHaveLength(100);
    const files = Array.from({ length: 11 }, (_, i) => `content-disposition: form-data; name="file${i}"; filename="${i}.txt"\r\ncontent-type: text/plain\r\n\r\n${i}`);
    const { headers, body } = multipart(files);
    expect(Object.keys((await readBody(requestOf(headers, [body]), 'multipart', 10_000)).files)).toHaveLength(10);
  });

  it.each([
    ['fields over the limit together', form, ['a=' + 'x'.repeat(60) + '&b=' + 'y'.repeat(41)], { message: 'body over 100 bytes', unread: true }],
    ['JSON', json, ['{}'], { message: 'expected form data, got application/json', unread: false }],
    ['no content type', {}, ['a=1'], { message: 'expected form data, got no content type', unread: false }],
    ['a multipart body without a boundary', { 'content-type': 'multipart/form-data' }, ['--b--'], { message: 'malformed form: Multipart: Boundary not found', unread: false }],
    ['a multipart body cut before its end', { 'content-type': 'multipart/form-data; boundary=b' }, ['--b\r\ncontent-disposition: form-data; name="a"\r\n\r\n1'], { message: 'malformed form: Unexpected end of form', unread: false }],
  ])('refuses %s', async (_name, headers, chunks, refusal) => {
    expect(await refusalOf(readBody(requestOf(headers, chunks), 'multipart', 100))).toEqual(refusal);
  });

  it('refuses a file over the limit on its own, as unread', async () => {
    const { headers, body } = multipart([`content-disposition: form-data; name="f"; filename="x.bin"\r\ncontent-type: application/octet-stream\r\n\r\n${'z'.repeat(150)}`]);
    expect(await refusalOf(readBody(requestOf(headers, [body]), 'multipart', 100))).toEqual({ message: 'body over 100 bytes', unread: true });
  });

  it('refuses a request the client aborts, as unread', async () => {
    expect(await refusalOf(readBody(requestOf(form, ['a=1'], true), 'multipart', 100))).toEqual({ message: 'the request was aborted', unread: true });
  });
});
