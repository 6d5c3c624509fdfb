// What a session costs of its company's bounds (README, Limits): `maxBytesPerCompany` counts what the
// company's requests added, so a session counts a fixed part plus what its begin request brought (steps,
// settings, flags, name), and a begin over the budget gets wrong-parameters and stores nothing;
// `maxActivitiesPerSession` keeps the first activity (the creation) and the latest.
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Begins sessions of company A with `input` until one is refused; answers how many were stored. */
async function sessionsThatFit(input: Record<string, unknown>, most = 40) {
  const before = (await t!.control.listSessions({ limit: 100 })).result.length;
  for (let stored = 0; stored < most; stored++) {
    const code = await codeOf(t!.a.begin(input as never));
    if (code !== 'resolved') {
      expect(code).toBe('wrong-parameters');
      // Nothing of the refused one is kept: the console lists the stored ones only.
      expect((await t!.control.listSessions({ limit: 100 })).result).toHaveLength(before + stored);
      return stored;
    }
  }
  return most;
}

const big = 'x'.repeat(6_000);

describe('the byte budget of a company', () => {
  it('holds 19 sessions begun without settings: each counts 512 bytes of 10,000', async () => {
    t = await startTestSandbox({ limits: { maxBytesPerCompany: 10_000 } });
    expect(await sessionsThatFit({})).toBe(19);
  });

  it.each([
    ['a name', { name: big }],
    ['steps', { steps: [{ type: 'liveness', key: 'liveness', flags: { note: big } }] }],
    ['settings (general)', { general: { language: big } }],
    ['flags', { flags: { note: big } }],
  ])('counts what the request brought in %s: one session with 6,000 characters of it fits, a second does not', async (_what, input) => {
    t = await startTestSandbox({ limits: { maxBytesPerCompany: 10_000 } });
    expect(await sessionsThatFit(input)).toBe(1);
    // Bare sessions still fit in what is left: 6 of 512 bytes in 10,000 - (512 + 6,000 and some JSON).
    expect(await sessionsThatFit({}, 10)).toBe(6);
  });

  it('is the company\'s own: another company\'s sessions do not use it up', async () => {
    t = await startTestSandbox({ limits: { maxBytesPerCompany: 10_000 } });
    expect(await sessionsThatFit({ name: big })).toBe(1);
    expect(await codeOf(t.b.begin({ name: big }))).toBe('resolved');
  });
});

describe('the activities of a session', () => {
  it('keep the creation and the latest maxActivitiesPerSession - 1 openings of the applicant page', async () => {
    t = await startTestSandbox({ limits: { maxActivitiesPerSession: 3 } });
    const started = t.clock.now();
    const { id } = await t.a.begin({});
    for (let opening = 1; opening <= 4; opening++) {
      t.clock.advance(60_000);
      expect((await fetch(`${t.url}/widget/?session_token=${id}`)).status).toBe(200);
    }
    const { result } = await t.a.listSessionActivities({ sessionId: id });
    const at = (minutes: number) => new Date(started + minutes * 60_000).toISOString();
    expect(result.map((activity) => [activity.type, activity.time])).toEqual([
      ['SESSION_CREATED', at(0)],
      ['PAGE_LOADED', at(3)],
      ['PAGE_LOADED', at(4)],
    ]);
    // Each activity has an ID of its own kind (a prefix and 32 hex digits, README "IDs").
    expect(result.map((activity) => activity.id)).toEqual([expect.stringMatching(/^act_[0-9a-f]{32}$/), expect.stringMatching(/^act_[0-9a-f]{32}$/), expect.stringMatching(/^act_[0-9a-f]{32}$/)]);
    expect(new Set(result.map((activity) => activity.id)).size).toBe(3);
  });
});

describe('the console\'s view of a session', () => {
  it('tells a KYC session from a KYB one', async () => {
    t = await startTestSandbox();
    const { id: kyc } = await t.a.begin({});
    const { id: kyb } = await t.a.begin({ configId: 'cfg-kyb-standard-01' });
    expect((await t.control.getSession({ sessionId: kyc })).result.kind).toBe('kyc');
    expect((await t.control.getSession({ sessionId: kyb })).result.kind).toBe('kyb');
  });
});
