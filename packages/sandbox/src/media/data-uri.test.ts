// A file decoded ahead in pieces must be exactly what decoding it in one go gives, refusals included.
import { describe, expect, it } from 'vitest';
import { decodeAhead, decodeBase64, parseDataUri, withoutLineBreaks } from './data-uri.js';

/** What decodeBase64 gives without a decoded-ahead result: the rule every piece-wise result must match. */
function inOneGo(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

/** Equal bytes (or both undefined), compared natively: deep equality of megabytes takes seconds. */
const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) => (a === undefined || b === undefined ? a === b : Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b));

const megabyte = 1024 * 1024;
const base64Of = (length: number, fill = 0x41) => Buffer.alloc(length, fill).toString('base64');

describe('decodeAhead', () => {
  // Pieces are 1 MiB of text: cases around and across their edges.
  const texts = {
    'one piece': base64Of(1000),
    'exactly one piece': base64Of((megabyte / 4) * 3),
    'two pieces, padding at the end': base64Of((megabyte / 4) * 3 + 1),
    'three pieces': base64Of(2 * megabyte),
    'padding at the end of a piece that is not the last': base64Of((megabyte / 4) * 3 - 1) + base64Of(30),
    'junk in a middle piece': `${base64Of(megabyte)}*${base64Of(30).slice(1)}`,
    'a length not a multiple of 4': `${base64Of(megabyte)}A`,
    empty: '',
  };

  for (const [name, text] of Object.entries(texts)) {
    it(`gives what decoding in one go gives: ${name}`, async () => {
      const expected = inOneGo(text);
      const forget = await decodeAhead(text);
      expect(same(decodeBase64(text), expected)).toBe(true);
      forget();
      const uri = `data:image/jpeg;base64,${text}`;
      const forgetUri = await decodeAhead(uri);
      const parsed = parseDataUri(uri);
      expect(parsed?.contentType).toBe(expected && 'image/jpeg');
      expect(same(parsed?.bytes, expected)).toBe(true);
      forgetUri();
    });
  }

  it('is what the handler finds for that very string, until forgotten', async () => {
    const text = base64Of(3000);
    const forget = await decodeAhead(text);
    // A result only decodeAhead gives: the handler's look-up is not decoding again.
    const found = decodeBase64(text)!;
    expect(decodeBase64(text)).toBe(found);
    forget();
    expect(decodeBase64(text)).not.toBe(found);
    expect(same(decodeBase64(text), found)).toBe(true);
  });

  it('leaves a malformed data URI header as parseDataUri finds it: undefined', async () => {
    const uri = `data:image/jpeg,${base64Of(100)}`;
    const forget = await decodeAhead(uri);
    expect(parseDataUri(uri)).toBeUndefined();
    forget();
  });
});

describe('withoutLineBreaks', () => {
  it('takes out the line breaks of wrapped base64, and gives back the very string without any', () => {
    expect(withoutLineBreaks('QUJD\r\nREVG\nR0hJ')).toBe('QUJDREVGR0hJ');
    const plain = base64Of(3000);
    expect(withoutLineBreaks(plain)).toBe(plain);
  });

  it('finds wrapped base64 decoded ahead: the handler gets the bytes without decoding again', async () => {
    const plain = base64Of(megabyte * 2);
    const wrapped = plain.replace(/.{76}/g, '$&\r\n');
    const forget = await decodeAhead(wrapped);
    // Compared as booleans: expect() formats megabytes of text or bytes even when they match.
    const joined = withoutLineBreaks(wrapped);
    expect(joined === plain).toBe(true);
    const found = decodeBase64(joined)!;
    expect(decodeBase64(joined) === found).toBe(true);
    expect(same(found, inOneGo(plain))).toBe(true);
    forget();
    expect(decodeBase64(withoutLineBreaks(wrapped)) === found).toBe(false);
  });
});
