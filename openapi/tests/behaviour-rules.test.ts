// Rules of the descriptions that the code acts on, pinned so that changing one is a deliberate decision:
// - `x-idempotent` decides whether the client retries an operation after a lost answer (retrying a write
//   can do it twice), so every write stays `false` and every read stays `true`;
// - the sandbox answers with the codes an operation documents (packages/sandbox/src/codes.ts falls back
//   to another documented code), so a code it answers with must not disappear from the operation's 400;
// - the 400's error key (`argumentError` or `error`) is what the client and the sandbox read and write.
import { describe, expect, it } from 'vitest';
import { apiNames, bundleAll, operationsOf, type OpenApiDocument, type Schema } from './bundles.js';
import { resolve } from './validator.js';

const documents = await bundleAll();
const operations = apiNames.flatMap((name) => operationsOf(name, documents[name]));
const byId = new Map(operations.map((entry) => [entry.operation.operationId!, entry]));

// Operations that change something: a repeated call creates, deletes or sends a second time.
const writes = [
  'begin', 'deleteSession', 'monitorScreeningQuery', 'removeScreeningQueryFromMonitoring', 'addBlacklistRecord',
  'removeBlacklistRecord', 'endVideoCall', 'uploadFile', 'deleteFile', 'makeGroup', 'changeGroup', 'deleteGroup',
  'createUser', 'deleteUser', 'legacyBegin', 'legacyDelete', 'sandboxCompleteSession', 'sandboxRequestAdditionalInformation',
  'sandboxSetVideoCallStatus', 'sandboxChangeWatchlistEntry', 'sandboxRaiseEvent', 'sandboxExpireSession', 'sandboxResendCallback',
  'sandboxUnblockAddress',
];
// Lookups in an outside source that may be charged per request (our choice, said in their descriptions).
const chargedLookups = ['getTrustedDatabaseRecord', 'checkInRegistry'];
// Callbacks: the integrator's handler sends an SMS or an e-mail, or acts on a status change.
const callbacks = ['oneTimePasswordRequest', 'shareSessionLinkViaSms', 'shareSessionLinkViaEmail', 'emailOneTimePasswordRequest', 'sessionChange', 'videoCallStatusUpdate'];
// Reads, and the sandbox reset (resetting twice leaves the same empty state).
const safeToRetry = [
  'getResult', 'exportSessionAsPdf', 'getSessionMainDocumentFacePhoto', 'listSessionActivities', 'getSessionStatisticalSummary',
  'getVisualMarkers', 'getSessionConfig', 'searchScreeningPerson', 'getScreeningPersonDetails', 'listScreeningMonitoringRecords',
  'getScreeningDeltaRecords', 'listBlacklistRecords', 'getVideoCallShots', 'getVideoCallVideos', 'getQuestionFile', 'getFile',
  'listGroups', 'listUsers', 'compareFaces', 'checkSpoofing', 'legacyGetResult', 'legacyGetCardFront', 'legacyGetCardBack',
  'legacyGetPassport', 'legacyGetFace', 'legacyGetFaceVideo', 'legacyGetFaceDocument', 'legacyGetGeneralDocument',
  'legacyExtractCardFront', 'legacyExtractCardBack', 'legacyExtractLicenseFront', 'legacyExtractLicenseBack',
  'legacyExtractResidenceFront', 'legacyExtractResidenceBack', 'legacyExtractPassport', 'sandboxReset', 'sandboxListCallbacks',
  'sandboxListRequests', 'sandboxGetRequest', 'sandboxListSessions', 'sandboxGetSession', 'sandboxGetCallbackDelivery', 'sandboxListRateLimit',
  // setting delivery to paused (or running) twice leaves it as once
  'sandboxSetCallbackDelivery',
];

describe('retry safety (x-idempotent)', () => {
  it('is false on every write, charged lookup and callback, true on every read, and every operation is one of them', () => {
    const notSafe = [...writes, ...chargedLookups, ...callbacks];
    expect([...byId.keys()].sort()).toEqual([...notSafe, ...safeToRetry].sort());
    for (const id of notSafe) expect(byId.get(id)?.operation['x-idempotent'], `${id} must not be retried`).toBe(false);
    for (const id of safeToRetry) expect(byId.get(id)?.operation['x-idempotent'], `${id} is safe to retry`).toBe(true);
  });
});

function errorSchemaOf(document: OpenApiDocument, operationId: string): { key: string; schema: Schema }[] {
  const { operation } = byId.get(operationId)!;
  const response = resolve(document, operation.responses['400']);
  const schema = resolve(document, response?.content?.['application/json']?.schema);
  const branches = [schema, ...(((schema?.oneOf ?? schema?.anyOf) as Schema[] | undefined) ?? [])].map((branch) => resolve(document, branch));
  return branches.flatMap((branch) =>
    ['argumentError', 'error']
      .filter((key) => (branch?.properties as Record<string, Schema> | undefined)?.[key])
      .map((key) => ({ key, schema: resolve(document, (branch!.properties as Record<string, Schema>)[key]) })),
  );
}

/** Whether the operation's 400 documents `code`: as a fixed value, or matching a pattern such as `no-<registry>-source`. */
function documents400(operationId: string, code: string): boolean {
  const document = documents[byId.get(operationId)!.api];
  const accepts = (schema: Schema | undefined): boolean => {
    const resolved = resolve(document, schema);
    if (!resolved) return false;
    if (Array.isArray(resolved.enum) && resolved.enum.includes(code)) return true;
    if (resolved.const === code) return true;
    if (typeof resolved.pattern === 'string' && new RegExp(resolved.pattern).test(code)) return true;
    return [...((resolved.anyOf as Schema[]) ?? []), ...((resolved.oneOf as Schema[]) ?? [])].some(accepts);
  };
  return errorSchemaOf(document, operationId).some(({ schema }) => accepts(schema));
}

// The codes the sandbox answers each operation with for a documented reason (packages/sandbox/src:
// handlers/*.ts, sessions.ts and server.ts), beyond its generic answer to malformed input.
const sandboxCodes: Record<string, string[]> = {
  begin: ['wrong-parameters', 'invalid-access'],
  getResult: ['session-not-found'],
  exportSessionAsPdf: ['wrong-parameters', 'session-not-found', 'invalid-access'],
  getSessionMainDocumentFacePhoto: ['face-photo-not-found', 'session-not-found', 'invalid-access'],
  getVisualMarkers: ['not-found', 'session-not-found', 'invalid-access'],
  listSessionActivities: ['session-not-found', 'invalid-access'],
  getSessionStatisticalSummary: ['session-not-found', 'invalid-access'],
  getSessionConfig: ['wrong-parameters'],
  searchScreeningPerson: ['payment-needed', 'access-denied'],
  getScreeningPersonDetails: ['payment-needed', 'access-denied'],
  monitorScreeningQuery: ['payment-needed', 'already-exists', 'access-denied'],
  removeScreeningQueryFromMonitoring: ['payment-needed', 'access-denied'],
  listScreeningMonitoringRecords: ['payment-needed', 'access-denied'],
  getScreeningDeltaRecords: ['payment-needed', 'wrong-parameters'],
  addBlacklistRecord: ['wrong-parameters', 'already-exists', 'invalid-company-key'],
  removeBlacklistRecord: ['not-found', 'invalid-company-key'],
  listBlacklistRecords: ['invalid-company-key'],
  getVideoCallShots: ['not-found', 'session-not-found'],
  getVideoCallVideos: ['not-found', 'session-not-found'],
  endVideoCall: ['invalid-access'],
  uploadFile: ['wrong-parameters', 'session-not-found'],
  getFile: ['wrong-parameters', 'session-not-found'],
  deleteFile: ['wrong-parameters', 'session-not-found'],
  getQuestionFile: ['wrong-parameters', 'session-not-found'],
  makeGroup: ['wrong-parameters'],
  changeGroup: ['wrong-parameters', 'invalid-access'],
  deleteGroup: ['wrong-parameters', 'invalid-access'],
  createUser: ['invalid-email-format', 'password-too-short', 'invalid-rights', 'user-already-exists', 'invalid-company-key'],
  deleteUser: ['user-not-found', 'invalid-company-key'],
  compareFaces: ['wrong-parameters'],
  checkSpoofing: ['wrong-parameters'],
  getTrustedDatabaseRecord: ['no-trusted-database-sources', 'wrong-parameters'],
  checkInRegistry: ['wrong-parameters', 'no-passport-source', 'no-population-registry-source'],
  legacyGetResult: ['session-not-found'],
  legacyDelete: ['session-not-found'],
  legacyExtractCardFront: ['wrong-parameters'],
  sandboxReset: ['invalid-admin-token', 'invalid-company-key'],
  sandboxCompleteSession: ['session-not-found', 'invalid-company-key'],
  sandboxSetVideoCallStatus: ['wrong-parameters', 'session-not-found'],
  sandboxChangeWatchlistEntry: ['wrong-parameters', 'invalid-company-key'],
};

describe('the error codes the sandbox answers with', () => {
  it.each(Object.entries(sandboxCodes))('stay documented on %s', (operationId, codes) => {
    expect(byId.has(operationId), `${operationId} exists`).toBe(true);
    const missing = codes.filter((code) => !documents400(operationId, code));
    expect(missing, `${operationId}'s 400 no longer documents what the sandbox answers`).toEqual([]);
  });
});

describe('the key of the 400 body', () => {
  it('is `error` for the trusted-database and registry checks, `argumentError` for every other operation with a 400', () => {
    const keys = Object.fromEntries(
      operations
        .filter((entry) => entry.kind === 'path' && entry.operation.responses['400'])
        .map((entry) => [entry.operation.operationId!, [...new Set(errorSchemaOf(documents[entry.api], entry.operation.operationId!).map(({ key }) => key))]]),
    );
    for (const [id, found] of Object.entries(keys)) {
      expect(found, id).toEqual(chargedLookups.includes(id) ? ['error'] : ['argumentError']);
    }
  });
});
