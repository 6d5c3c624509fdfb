// The console shows a logged body with no key in it (README "Console": every key redacted, media as a
// size), whatever form the body takes: JSON, a URL-encoded or multipart form, text, or a body cut short.
import { describe, expect, it } from 'vitest';
import { describeBody, maxKeptBytes, multipartFields, redactText } from './redact.js';

const key = 'ck_test_secret_company_0000';
const form = (boundary: string, parts: string[]) => Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`, 'latin1');

describe('redactText', () => {
  it('redacts every secret-named field of a URL-encoded form, first or later, and no other field', () => {
    expect(redactText('company_key=ck_test_x&session_token=s1&callback_api_key=cb_y&password=p', [])).toBe('company_key=[redacted]&session_token=s1&callback_api_key=[redacted]&password=[redacted]');
    expect(redactText('my_company_key=visible', [])).toBe('my_company_key=visible');
  });

  it('redacts a JSON value with escaped quotes, spaces around the colon, or cut off before its end', () => {
    expect(redactText('{"companyKey" : "ck_\\"quoted\\"_0000", "a": 1}', [])).toBe('{"companyKey" : "[redacted]", "a": 1}');
    expect(redactText('{"adminToken":"adm_cut_off_here', [])).toBe('{"adminToken":"[redacted]"');
    expect(redactText('{"companyKeyX":"kept"}', [])).toBe('{"companyKeyX":"kept"}');
  });

  it('redacts each known secret wherever it is, every time it appears, and ignores an empty one', () => {
    expect(redactText(`a ${key} b ${key}`, ['', key])).toBe('a [redacted] b [redacted]');
    expect(redactText('nothing secret', ['', 'absent'])).toBe('nothing secret');
  });
});

describe('multipartFields', () => {
  it('reads a quoted boundary, a file without a type as octet-stream, and a field as UTF-8', () => {
    const body = form('a b', ['Content-Disposition: form-data; name="name"\r\n\r\nJos\u00c3\u00a9', 'Content-Disposition: form-data; name="f"; filename="x.bin"\r\n\r\n1234']);
    expect(multipartFields(body, 'multipart/form-data; boundary="a b"')).toEqual({ name: 'José', f: '[file "x.bin", application/octet-stream, 4 bytes]' });
  });

  it('skips a part without a name or without a blank line, and gives nothing without a boundary', () => {
    const body = form('B', ['Content-Disposition: form-data\r\n\r\nno name', 'Content-Disposition: form-data; name="cut"', 'Content-Disposition: form-data; name="ok"\r\n\r\nyes']);
    expect(multipartFields(body, 'multipart/form-data; boundary=B')).toEqual({ ok: 'yes' });
    expect(multipartFields(body, 'multipart/form-data')).toEqual({});
  });

  it('keeps a value with line breaks and a boundary-like dash run whole, and reads a type without a space', () => {
    const body = form('boundary42', ['Content-Disposition: form-data; name="note"\r\n\r\nline one\r\nline two --b', 'Content-Disposition: form-data; name="f"; filename="p.png"\r\nContent-Type:image/png\r\n\r\n12']);
    expect(multipartFields(body, 'multipart/form-data; boundary=boundary42')).toEqual({ note: 'line one\r\nline two --b', f: '[file "p.png", image/png, 2 bytes]' });
  });

  it('keeps a boundary given before other parameters, and an empty file', () => {
    const body = form('B2', ['Content-Disposition: form-data; name="f"; filename="e.pdf"\r\nContent-Type: application/pdf\r\n\r\n']);
    expect(multipartFields(body, 'multipart/form-data; boundary=B2; charset=utf-8')).toEqual({ f: '[file "e.pdf", application/pdf, 0 bytes]' });
  });
});

describe('describeBody', () => {
  it('is no text for an empty body, whatever its type', () => {
    expect(describeBody(Buffer.alloc(0), 0, 'application/json', [])).toEqual({ contentType: 'application/json', size: 0, text: null, truncated: false });
    expect(describeBody(Buffer.alloc(0), 0, undefined, [])).toEqual({ contentType: null, size: 0, text: null, truncated: false });
  });

  it('lays out JSON over lines, redacted; a body that is not JSON after all is shown as it came', () => {
    const body = Buffer.from(`{"companyKey":"${key}","n":1}`);
    expect(describeBody(body, body.length, 'application/json; charset=utf-8', [key])).toEqual({ contentType: 'application/json; charset=utf-8', size: body.length, text: '{\n  "companyKey": "[redacted]",\n  "n": 1\n}', truncated: false });
    expect(describeBody(Buffer.from('{oops'), 5, 'application/problem+json', []).text).toBe('{oops');
  });

  it('lays out only JSON that came whole with a JSON type: other text is shown as it came', () => {
    expect(describeBody(Buffer.from('{"a":1}'), 7, 'text/plain', []).text).toBe('{"a":1}');
    expect(describeBody(Buffer.from('{"a":1}'), 7, undefined, []).text).toBe('{"a":1}');
    expect(describeBody(Buffer.from('{"a":1}'), 70, 'application/json', [])).toEqual({ contentType: 'application/json', size: 70, text: '{"a":1}', truncated: true });
  });

  it('shows a body cut short as it was kept, marked truncated, still redacted', () => {
    const kept = Buffer.from(`{"password":"hunter2hunter2","n":1`);
    expect(describeBody(kept, maxKeptBytes + 1, 'application/json', [])).toEqual({ contentType: 'application/json', size: maxKeptBytes + 1, text: '{"password":"[redacted]","n":1', truncated: true });
    expect(maxKeptBytes).toBe(16 * 1024);
  });

  it('shows text types and bodies of no stated type as text, and media by size only', () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'TEXT/HTML']) expect(describeBody(Buffer.from('a=1'), 3, type, []).text).toBe('a=1');
    expect(describeBody(Buffer.from('company_key=ck_test_q'), 21, undefined, [])).toEqual({ contentType: null, size: 21, text: 'company_key=[redacted]', truncated: false });
    for (const type of ['application/pdf', 'video/mp4', 'application/octet-stream', 'x-text/plain']) expect(describeBody(Buffer.from('abc'), 10, type, []).text).toBeNull();
  });

  it('redacts a multipart form\'s secret fields and known keys, reporting a cut-off form as truncated', () => {
    const body = form('Q', [`Content-Disposition: form-data; name="callback_api_key"\r\n\r\ncb_test_other_0000`, `Content-Disposition: form-data; name="note"\r\n\r\nsee ${key}`]);
    const shown = describeBody(body, body.length + 100, 'Multipart/Form-Data; boundary=Q', [key]);
    expect(shown.truncated).toBe(true);
    expect(shown.contentType).toBe('Multipart/Form-Data; boundary=Q');
    expect(JSON.parse(shown.text!)).toEqual({ callback_api_key: '[redacted]', note: 'see [redacted]' });
    expect(describeBody(body, body.length, 'multipart/form-data; boundary=Q', []).truncated).toBe(false);
  });
});
