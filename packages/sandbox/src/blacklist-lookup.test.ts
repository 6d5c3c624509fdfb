// A finished KYC session is rejected as BLACKLISTED when a blacklist record of its company names its person
// (docs/sandbox.md "Sample people and documents"): by document number, by personal number, or by first and
// last name together, written in any case and with stray spaces, as a tester types them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>>;
beforeEach(async () => {
  t = await startTestSandbox();
});
afterEach(() => t.close());

/** A finished session's person (legacy result), for the records to name. */
async function finishedPerson() {
  const { id } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
  await t.control.completeSession({ sessionId: id, result: 'approved' });
  return { id, person: (await t.legacyA.getResult({ session_token: id })).person! };
}

/** The session's outcome when it is finished again, as approved. */
async function outcome(id: string) {
  await t.control.completeSession({ sessionId: id, result: 'approved' });
  const result = await t.legacyA.getResult({ session_token: id });
  return result.reject_reason?.value || result.result;
}

const sloppy = (text: string) => `  ${text.toLowerCase()} `;

describe('the blacklist check of a finished session', () => {
  it('finds a record by document number written in lower case with spaces', async () => {
    const { id, person } = await finishedPerson();
    await t.a.addBlacklistRecord({ query: { reason: 'Forged', documentNumber: sloppy(person.document_number!) } });
    expect(await outcome(id)).toBe('BLACKLISTED');
  });

  it('finds a record by personal number with spaces', async () => {
    const { id, person } = await finishedPerson();
    await t.a.addBlacklistRecord({ query: { reason: 'Forged', personalNumber: ` ${person.personal_number!}  ` } });
    expect(await outcome(id)).toBe('BLACKLISTED');
  });

  it('finds a record by first and last name together, in any case and with spaces', async () => {
    const { id, person } = await finishedPerson();
    await t.a.addBlacklistRecord({ query: { reason: 'Forged', firstName: sloppy(person.first_name!), lastName: sloppy(person.last_name!) } });
    expect(await outcome(id)).toBe('BLACKLISTED');
  });

  it("finds no record of another person, and none of another company's", async () => {
    const { id, person } = await finishedPerson();
    await t.a.addBlacklistRecord({ query: { reason: 'Other', firstName: person.first_name!, lastName: 'NOBODY' } });
    await t.b.addBlacklistRecord({ query: { reason: 'Of B', documentNumber: person.document_number! } });
    expect(await outcome(id)).toBe('approved');
  });
});
