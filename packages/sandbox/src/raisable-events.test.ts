import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { callbackRules, payloadOf, raisableCallbacks, sentOnChange } from './raisable-events.js';
import { loadDocument } from './spec.js';

const raise = { sessionId: 'sess_real_0001', sessionLink: 'http://127.0.0.1:4020/widget/?session_token=sess_real_0001', code: '000042', given: {} };

/** A copy of the bundled current description with one more callback, as a spec edit would add it. */
function withNewCallback() {
  const document = structuredClone(loadDocument('current')) as any;
  document.components.schemas.AccountUnlockRequestEvent = {
    type: 'object',
    required: ['callbackApiKey', 'type', 'sessionId', 'phoneNumber', 'text', 'unlockLink'],
    properties: {
      callbackApiKey: { type: 'string' },
      type: { type: 'string', const: 'account-unlock-request' },
      sessionId: { type: 'string' },
      phoneNumber: { type: 'string' },
      text: { type: 'string' },
      unlockLink: { type: 'string', format: 'uri' },
    },
  };
  const example = { callbackApiKey: 'cb_test_not_a_real_key_0000', type: 'account-unlock-request', sessionId: '6f1c2a7e-session-0001', phoneNumber: '+995555000111', text: 'Code 482913 for 6f1c2a7e-session-0001', unlockLink: 'https://verify.example.com/unlock' };
  document.webhooks['account-unlock-request'] = {
    post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/AccountUnlockRequestEvent' }, examples: { unlock: { value: example } } } } } },
  };
  return document;
}

describe('the callbacks raise-event can send', () => {
  it('are the description\'s webhooks but the two the sandbox sends on a change', () => {
    const expected = Object.keys(webhookTable).filter((type) => !sentOnChange.has(type));
    expect([...raisableCallbacks().keys()].sort()).toEqual(expected.sort());
    expect(expected).toHaveLength(4);
  });

  it('follow a callback added to the description, with its payload made from its example', () => {
    const rules = callbackRules(withNewCallback());
    const rule = rules.get('account-unlock-request')!;
    expect(rule).toBeDefined();
    const payload = payloadOf(rule, { ...raise, given: { phoneNumber: '+995500000001', notAField: true } });
    expect(payload).toEqual({ type: 'account-unlock-request', sessionId: raise.sessionId, phoneNumber: '+995500000001', text: `Code 000042 for ${raise.sessionId}`, unlockLink: 'https://verify.example.com/unlock' });
    expect(rule.validate({ ...payload, callbackApiKey: 'cb_test_0000' })).toBe(true);
    // Its schema's formats hold: an unlock link that is no URI is refused.
    expect(rule.validate({ ...payload, callbackApiKey: 'cb_test_0000', unlockLink: 'not a uri' })).toBe(false);
    expect(callbackRules(loadDocument('current') as any).has('account-unlock-request')).toBe(false);
  });

  it('carry the session\'s link wherever the example carries its link, and a fresh code in texts', () => {
    const rule = raisableCallbacks().get('share-session-link-via-sms')!;
    const payload = payloadOf(rule, raise);
    expect(payload).toMatchObject({ sessionLink: raise.sessionLink, text: expect.stringContaining(raise.sessionLink), sessionId: raise.sessionId });
    expect(JSON.stringify(payload)).not.toContain('verify.example.com');
    expect(payloadOf(raisableCallbacks().get('one-time-password-request')!, raise).text).toBe('Your verification code is 000042');
  });
});
