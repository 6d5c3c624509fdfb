// What the console may show of a body: no key, whatever field or form it hides in; files and media by size.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { consoleCss, consoleJs } from './assets.js';
import { describeBody, redactText } from './redact.js';

const key = 'ck_test_secret_company_0000';

describe('redaction', () => {
  it('replaces a known key anywhere and the value of every secret-named field', () => {
    const text = JSON.stringify({ companyKey: 'ck_test_unknown_0000', nested: { callbackApiKey: 'cb_x', adminToken: 'adm' }, note: `key ${key}`, password: 'hunter2hunter2' });
    const shown = redactText(text, [key]);
    for (const secret of ['ck_test_unknown_0000', 'cb_x', '"adm"', key, 'hunter2']) expect(shown).not.toContain(secret);
    expect(JSON.parse(shown)).toEqual({ companyKey: '[redacted]', nested: { callbackApiKey: '[redacted]', adminToken: '[redacted]' }, note: 'key [redacted]', password: '[redacted]' });
  });

  it('shows a form\'s fields with company_key redacted and its files by name, type and size', () => {
    const boundary = 'XyZ';
    const form = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="company_key"\r\n\r\nck_test_other_0000\r\n--${boundary}\r\nContent-Disposition: form-data; name="session_token"\r\n\r\nsess_1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\u00ff\u00d8\u00ff\u00e0abc\r\n--${boundary}--\r\n`, 'latin1');
    const body = describeBody(form, form.length, `multipart/form-data; boundary=${boundary}`, []);
    expect(JSON.parse(body.text!)).toEqual({ company_key: '[redacted]', session_token: 'sess_1', file: '[file "a.jpg", image/jpeg, 7 bytes]' });
  });

  it('gives media a size only, and says when a body was cut', () => {
    expect(describeBody(Buffer.from([0xff, 0xd8]), 50_000, 'image/jpeg', [])).toEqual({ contentType: 'image/jpeg', size: 50_000, text: null, truncated: false });
    expect(describeBody(Buffer.from('{"a":'), 99_999, 'application/json', []).truncated).toBe(true);
  });
});

describe('the console\'s own assets', () => {
  it('weigh at most 60 kB min+gzip', () => {
    const bytes = gzipSync(consoleCss).length + gzipSync(consoleJs).length;
    expect(bytes).toBeLessThanOrEqual(60 * 1024);
  });
});
