// An upload's JSON body read in pieces must give exactly what JSON.parse of the whole body gives, however
// the body is cut into chunks, or refuse it where JSON.parse or the text limit would.
import { describe, expect, it } from 'vitest';
import { BigJsonError, BigJsonReader } from './big-json.js';
import { readInChunks } from './big-json.test-helper.js';

const read = readInChunks;

const sizes = [1, 2, 3, 5, 7, 64, 100_000];

describe('BigJsonReader', () => {
  it('gives what JSON.parse gives for bodies with long file fields, whatever the chunks', async () => {
    const bodies = [
      { companyKey: 'ck_test_x', content: `data:image/jpeg;base64,${'QUJD'.repeat(50)}`, note: 'a "q" \\ b' },
      { content: 'x'.repeat(40), file: 'y'.repeat(17), nested: { a: [1, 'two', null, true], b: 'é €' } },
      // Escapes and characters of several bytes inside a long field, so that chunks cut through them.
      { content: `a\\"b\u00e9\u20ac\ud83d\ude00\n\t"${'\\'.repeat(9)}${'\u0041'.repeat(30)}` },
      { content: '"'.repeat(33), file: '\\'.repeat(40) },
      { content: 'short', file: '' },
    ];
    for (const body of bodies) {
      for (const size of sizes) expect(await read(JSON.stringify(body), size), `${JSON.stringify(body).slice(0, 40)} in chunks of ${size}`).toEqual(body);
    }
  });

  it('gives what JSON.parse gives for escapes written out (\\u0041) in a long field', async () => {
    const text = `{"content":"${'\\u0041\\u00e9\\ud83d\\ude00\\\\\\"'.repeat(20)}"}`;
    for (const size of sizes) expect(await read(text, size)).toEqual(JSON.parse(text));
  });

  it('keeps the last of two equal keys, as JSON.parse does', async () => {
    const text = `{"content":"${'a'.repeat(30)}","content":"${'b'.repeat(30)}"}`;
    expect(await read(text, 5)).toEqual(JSON.parse(text));
  });

  it('refuses a long string anywhere but the value of a top-level file field (it is over the text limit)', async () => {
    const long = 'z'.repeat(40);
    for (const body of [{ name: long }, { content: { inner: long } }, { content: [long] }, { [long]: 1 }, [long]]) {
      await expect(read(JSON.stringify(body), 3), JSON.stringify(body).slice(0, 30)).rejects.toThrow(BigJsonError);
    }
  });

  it('refuses what JSON.parse refuses: malformed escapes, a control character, a body cut short', async () => {
    for (const text of [`{"content":"${'a'.repeat(30)}\\x"}`, `{"content":"${'a'.repeat(30)}\\u12"}`, `{"content":"${'a'.repeat(30)}\u0001"}`, `{"content":"${'a'.repeat(30)}`, `{"content":"${'a'.repeat(30)}"`]) {
      for (const size of [1, 4, 1000]) await expect(read(text, size), `${text.slice(-12)} in chunks of ${size}`).rejects.toThrow();
    }
  });

  it('refuses a body whose fields around the files take more than their limit, as soon as they do', () => {
    const reader = new BigJsonReader(16, 200);
    expect(() => reader.write(Buffer.from(`{"content":"${'a'.repeat(1000)}","pad":[${'1,'.repeat(40)}`))).not.toThrow();
    expect(() => reader.write(Buffer.from('1,'.repeat(40)))).toThrow(BigJsonError);
  });
});
