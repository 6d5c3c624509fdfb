// A file decoded ahead in pieces must be exactly what decoding it in one go gives, refusals included.
import { describe, expect, it } from 'vitest';
import { decodeAhead, decodeBase64, parseDataUri, toDataUri, withoutLineBreaks } from './data-uri.js';

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
    'exactly one piece, ending in padding': base64Of((megabyte / 4) * 3 - 1),
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

describe('parseDataUri and toDataUri', () => {
  const bytes = new Uint8Array([0, 1, 2, 250, 255]);

  it('read back what toDataUri writes: the media type and the bytes', () => {
    const uri = toDataUri('image/png', bytes);
    expect(uri).toBe('data:image/png;base64,AAEC+v8=');
    expect(parseDataUri(uri)).toEqual({ contentType: 'image/png', bytes });
    expect(parseDataUri('DATA:Application/PDF;BASE64,AAEC+v8=')).toEqual({ contentType: 'application/pdf', bytes });
  });

  it('refuse what is not exactly data:<type>;base64,<canonical base64>', () => {
    for (const uri of [
      'xdata:image/png;base64,AAEC+v8=', // something before
      'data:image/png;base64;charset=utf-8,AAEC+v8=', // something after ;base64
      'data:image/png,AAEC+v8=', // not base64
      'data:image/png;base64', // no comma, no data
      'data:image/png;base64,AAEC+v8', // not a multiple of 4
      'data:image/png;base64,AAEC+v9=', // not canonical (bits left over)
      'data:image/png;base64,AA*C+v8=', // junk
    ]) {
      expect(parseDataUri(uri), uri).toBeUndefined();
    }
  });

  it('read a header of up to 200 characters before the comma, and no longer one', () => {
    const type = (headerLength: number) => `image/${'x'.repeat(headerLength - 'data:image/;base64'.length)}`;
    expect(parseDataUri(`data:${type(200)};base64,AAEC+v8=`)?.contentType).toBe(type(200));
    expect(parseDataUri(`data:${type(201)};base64,AAEC+v8=`)).toBeUndefined();
  });

  it('give the bytes decoded ahead for that very URI, until forgotten', async () => {
    const uri = toDataUri('image/jpeg', new Uint8Array(3000).fill(9));
    const forget = await decodeAhead(uri);
    const found = parseDataUri(uri)!;
    expect(parseDataUri(uri)).toBe(found);
    forget();
    expect(parseDataUri(uri)).not.toBe(found);
    expect(parseDataUri(uri)).toEqual(found);
  });
});

describe('decodeBase64', () => {
  it('decodes canonical base64 and nothing else', () => {
    expect(decodeBase64('QUJD')).toEqual(new Uint8Array([0x41, 0x42, 0x43]));
    expect(decodeBase64('')).toEqual(new Uint8Array());
    for (const text of ['QUJ', 'QU*D', 'QUJ=', 'QUI=\n', 'QUI =']) expect(decodeBase64(text), text).toBeUndefined();
  });
});

describe('decoding ahead leaves other requests their turns', () => {
  /** How many event-loop turns passed while `work` ran: each is a turn another request could have had. */
  async function turnsDuring(work: () => Promise<unknown>) {
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await work();
    running = false;
    return turns;
  }

  it('gives a turn between the pieces of a data URI of several pieces', async () => {
    const uri = `data:video/mp4;base64,${base64Of(2 * megabyte)}`;
    let forget = () => {};
    expect(await turnsDuring(async () => (forget = await decodeAhead(uri)))).toBeGreaterThanOrEqual(2);
    forget();
  });
});

describe('withoutLineBreaks, either kind of line break', () => {
  it('takes out lone \\n and lone \\r breaks too', () => {
    expect(withoutLineBreaks('QUJD\nREVG')).toBe('QUJDREVG');
    expect(withoutLineBreaks('QUJD\rREVG')).toBe('QUJDREVG');
  });

  it('joins base64 wrapped with \\n only, or \\r only, when decoding ahead', async () => {
    const plain = base64Of(3000);
    for (const separator of ['\n', '\r']) {
      const wrapped = plain.replace(/.{76}/g, `$&${separator}`);
      const forget = await decodeAhead(wrapped);
      expect(withoutLineBreaks(wrapped)).toBe(plain);
      expect(same(decodeBase64(withoutLineBreaks(wrapped)), inOneGo(plain))).toBe(true);
      forget();
    }
  });
});
