// Which callbacks raise-event can send, read from a description's webhooks (raisable-events.ts), and the
// payload it makes of one, on descriptions written for the case: a webhook without a JSON body is not
// raisable (and breaks nothing), a callback is named by its `type` constant or else by its webhook's key,
// a schema or example reached through a reference (an escaped name too), an example taken from `example`,
// the first `examples` entry, the schema's example or nothing; and in the payload the example's values
// kept as they are when they are not text, the session link only where the callback has one, a value the
// request leaves undefined not written over the example's, and an empty example ID not spread through texts.
import { describe, expect, it } from 'vitest';
import { callbackRules, payloadOf } from './raisable-events.js';

const raise = { sessionId: 'sess_real_0001', sessionLink: 'http://127.0.0.1:4020/widget/?session_token=sess_real_0001', code: '000042', given: {} };

/** A description with the given webhooks and schemas. */
const document = (webhooks: Record<string, unknown>, schemas: Record<string, unknown> = {}) => ({ webhooks, components: { schemas } }) as never;
const body = (media: Record<string, unknown>) => ({ post: { requestBody: { content: { 'application/json': media } } } });
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('the raisable callbacks of a description', () => {
  it('leave out webhooks without a JSON body, and those the sandbox sends on a change', () => {
    const rules = callbackRules(
      document({
        'no-post': { get: {} },
        'no-body': { post: {} },
        'no-content': { post: { requestBody: {} } },
        'broken-ref': { post: { requestBody: { $ref: '#/components/requestBodies/missing' } } },
        'broken-schema-ref': body({ schema: { $ref: '#/components/nothing/here' } }),
        'no-json': { post: { requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } } } },
        'no-schema': body({ example: { a: 1 } }),
        'session-change': body({ schema: object({ type: { const: 'session-change' } }) }),
        'video-call-status-update': body({ schema: object({ type: { const: 'video-call-status-update' } }) }),
        kept: body({ schema: object({ text: { type: 'string' } }) }),
      }),
    );
    expect([...rules.keys()]).toEqual(['kept']);
  });

  it('are named by their type constant, else by their webhook\'s key', () => {
    const rules = callbackRules(
      document({
        'hook-key': body({ schema: object({ type: { type: 'string', const: 'the-type' } }) }),
        'plain-key': body({ schema: object({ type: { type: 'string' } }) }),
        'number-type': body({ schema: object({ type: { const: 7 } }) }),
        'no-properties': body({ schema: { type: 'object' } }),
      }),
    );
    expect([...rules.keys()].sort()).toEqual(['no-properties', 'number-type', 'plain-key', 'the-type']);
    expect(rules.get('the-type')!.type).toBe('the-type');
    expect(rules.get('no-properties')!.properties).toEqual([]);
  });

  it('follow references, escaped names too, to the body, the schema and the example', () => {
    const rules = callbackRules({
      webhooks: { 'ref-hook': { post: { requestBody: { $ref: '#/components/requestBodies/a~1b~0c' } } } },
      components: {
        requestBodies: { 'a/b~c': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' }, examples: { first: { $ref: '#/components/examples/one' }, second: { value: { text: 'second' } } } } } } },
        schemas: { Event: object({ type: { const: 'referenced' }, text: { type: 'string' } }) },
        examples: { one: { value: { text: 'first' } } },
      },
    } as never);
    const rule = rules.get('referenced')!;
    expect(rule.properties).toEqual(['type', 'text']);
    expect(rule.example).toEqual({ text: 'first' });
    expect(rule.validate({ type: 'referenced', text: 'x' })).toBe(true);
    expect(rule.validate({ type: 'referenced', text: 7 })).toBe(false);
  });

  it('start from the media type\'s example, else its first examples entry, else the schema\'s example, else nothing', () => {
    const rules = callbackRules(
      document({
        a: body({ schema: object({ type: { const: 'a' } }), example: { from: 'example' }, examples: { x: { value: { from: 'examples' } } } }),
        b: body({ schema: { ...object({ type: { const: 'b' } }), example: { from: 'schema' } }, examples: { x: { value: { from: 'examples' } } } }),
        c: body({ schema: { ...object({ type: { const: 'c' } }), example: { from: 'schema' } } }),
        d: body({ schema: object({ type: { const: 'd' } }) }),
        e: body({ schema: object({ type: { const: 'e' } }), examples: { x: { summary: 'no value' } } }),
      }),
    );
    expect(['a', 'b', 'c', 'd', 'e'].map((type) => rules.get(type)!.example)).toEqual([{ from: 'example' }, { from: 'examples' }, { from: 'schema' }, {}, {}]);
  });
});

describe('the payload of a raised callback', () => {
  const rule = (example: Record<string, unknown>, properties: Record<string, unknown>) =>
    callbackRules(document({ hook: body({ schema: object({ type: { const: 'hook' }, ...properties }), example }) })).get('hook')!;

  it('keeps the example\'s values that are not text as they are, copied', () => {
    const example = { count: 3, flags: { urgent: true }, list: [1, 'two'], none: null };
    const made = rule(example, { count: {}, flags: {}, list: {}, none: {} });
    const payload = payloadOf(made, raise);
    expect(payload).toEqual({ ...example, type: 'hook', sessionId: raise.sessionId });
    expect(payload.flags).not.toBe(example.flags);
  });

  it('sets the session link only on a callback that has one', () => {
    expect(payloadOf(rule({ text: 'hello' }, { text: {} }), raise)).toStrictEqual({ text: 'hello', type: 'hook', sessionId: raise.sessionId });
    expect(payloadOf(rule({ text: 'hello' }, { text: {}, sessionLink: {} }), raise).sessionLink).toBe(raise.sessionLink);
  });

  it('takes the request\'s values for the callback\'s fields only, and not those it leaves undefined', () => {
    const made = rule({ phoneNumber: '+995500000000', text: 'hi' }, { phoneNumber: {}, text: {} });
    const payload = payloadOf(made, { ...raise, given: { phoneNumber: undefined, text: 'given', other: 'x' } });
    expect(payload).toStrictEqual({ phoneNumber: '+995500000000', text: 'given', type: 'hook', sessionId: raise.sessionId });
  });

  it('replaces the example\'s session ID and link in texts, and leaves texts alone when the example has none or an empty one', () => {
    const withIds = rule({ sessionId: 'sess_example', sessionLink: 'https://x.example/s', text: 'Go to https://x.example/s for sess_example, code 123456' }, { text: {}, sessionLink: {} });
    expect(payloadOf(withIds, raise).text).toBe(`Go to ${raise.sessionLink} for ${raise.sessionId}, code 000042`);
    const empty = rule({ sessionId: '', sessionLink: '', text: 'Nothing to replace here' }, { text: {} });
    expect(payloadOf(empty, raise).text).toBe('Nothing to replace here');
    const none = rule({ text: 'No IDs, code 654321' }, { text: {} });
    expect(payloadOf(none, raise).text).toBe('No IDs, code 000042');
  });
});
