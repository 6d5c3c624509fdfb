import { describe, expect, it } from 'vitest';
import { lazyReplyWithText, replyWithText, textOf } from './json-text.js';

describe('replies with their JSON text', () => {
  it('carry the text beside the value, out of the way of the value\'s own fields', () => {
    const reply = replyWithText({ result: 1 }, '{"result":1}');
    expect(textOf(reply)).toBe('{"result":1}');
    expect(Object.keys(reply)).toEqual(['json']);
    expect(textOf({ json: { result: 1 } })).toBeUndefined();
  });

  it('carry the text as its UTF-8 bytes when given so, unchanged', () => {
    const bytes = Buffer.from('{"result":"Zoë"}');
    const reply = lazyReplyWithText(() => ({ result: 'Zoë' }), bytes);
    expect(textOf(reply)).toBe(bytes);
    expect(Buffer.from(JSON.stringify(reply.json))).toEqual(bytes);
  });

  it('make a lazy value only when it is read, once, and give the same value to every reader', () => {
    let made = 0;
    const reply = lazyReplyWithText(() => ({ result: ++made }), '{"result":1}');
    expect(made).toBe(0);
    expect('json' in reply).toBe(true);
    expect(textOf(reply)).toBe('{"result":1}');
    expect(made).toBe(0);
    const value = reply.json;
    expect(value).toEqual({ result: 1 });
    expect(reply.json).toBe(value);
    expect(made).toBe(1);
    expect(JSON.stringify(reply.json)).toBe(textOf(reply));
  });
});
