// State in the contract run's sandbox that lets every operation succeed: a finished KYC session with a
// video call, a user, a group, an attachment, a monitoring query and a blacklist record, and the values
// that replace the spec's example IDs in generated requests.
import { createClient, createLegacyClient, createSandboxClient } from '@idv-toolkit/client';
import { fakeKey } from './fake-key.js';

let counter = 0;

export function sandboxClients(baseUrl: string) {
  const settings = { companyKey: fakeKey, baseUrl, rateLimit: false as const, retry: false as const };
  return { idv: createClient(settings), legacy: createLegacyClient(settings), control: createSandboxClient(settings) };
}

export async function makeFixtures(baseUrl: string) {
  const { idv, legacy, control } = sandboxClients(baseUrl);
  const n = ++counter;
  const { id: sessionId } = await idv.begin({ configId: 'cfg-kyc-video-call' });
  await control.completeSession({ sessionId, result: 'approved' });
  await idv.endVideoCall({ sessionId });
  const kyc = await legacy.getResult({ session_token: sessionId });
  const videoFileId = kyc.videoCallStatus?.[0]?.videoFileId ?? undefined;
  const { result: userId } = await idv.createUser({ email: `fixture-${n}@example.org`, password: 'long-enough-password' });
  const { result: group } = await idv.makeGroup({ name: `Fixture group ${n}` });
  const { result: fileId } = await idv.uploadFile({ sessionId, stepKey: 'documents', questionKey: 'proof-of-address', content: 'data:application/pdf;base64,JVBERi0xLjcK' });
  const { result: monitoringId } = await idv.monitorScreeningQuery({ query: { fullName: `Fixture Person ${n}` } });
  const { result: recordId } = await idv.addBlacklistRecord({ query: { reason: 'Contract fixture', documentNumber: `FX-${n}` } });
  const { result: hits } = await idv.searchScreeningPerson({ query: { fullName: 'a', scoreThreshold: 0 }, limit: 1 });
  return {
    n,
    values: {
      sessionId,
      session_token: sessionId,
      parentSessionId: sessionId,
      parent_session_id: sessionId,
      userId,
      groupId: group.id,
      memberIds: [userId],
      filename: fileId,
      fileId: videoFileId,
      personId: hits[0]?.personId,
      stepKey: 'documents',
      questionKey: 'proof-of-address',
      fileIndex: 0,
      configId: 'cfg-kyc-standard-01',
      config_id: 'cfg-kyc-standard-01',
      sessionConfigId: 'cfg-kyc-standard-01',
      content: 'data:application/pdf;base64,JVBERi0xLjcK',
      email: `contract-${n}@example.org`,
    } as Record<string, unknown>,
    ids: { removeBlacklistRecord: recordId, removeScreeningQueryFromMonitoring: monitoringId } as Record<string, string>,
  };
}

/** The params with every field the fixtures know replaced, at any depth. */
export function withFixtures(params: Record<string, unknown>, fixtures: Awaited<ReturnType<typeof makeFixtures>>, operationId: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === 'id' && fixtures.ids[operationId]) out[name] = fixtures.ids[operationId];
    else if (name in fixtures.values && fixtures.values[name] !== undefined) out[name] = fixtures.values[name];
    else if (value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Blob)) out[name] = withFixtures(value as Record<string, unknown>, fixtures, operationId);
    else out[name] = value;
  }
  return out;
}
