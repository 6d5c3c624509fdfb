// Which operations run beside a write of their company that is still under way (handlers/index.ts): those
// that only read the stores (a list, a result, a file, a search) and addBlacklistRecord, whose one write
// is checked and made by the store itself. A read answered only after a slow write of its company would be
// a read that waits for nothing. Each is asked with its documented request example while the company's
// makeGroup holds its transaction; an operation that writes more (makeGroup itself) waits for it.
import { describe, expect, it } from 'vitest';
import type { Handler, Handlers } from './context.js';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';
import { loadDocument, type ApiName } from './spec.js';

const startSandbox = sandboxPerTest();

// The list is the contract: it is written out here, not read from the code it checks.
const besideWrites = [
  'getResult', 'legacyGetResult', 'listSessionActivities', 'getSessionStatisticalSummary', 'getSessionConfig', 'listBlacklistRecords',
  'listUsers', 'listGroups', 'getFile', 'getQuestionFile', 'getVideoCallShots', 'getVideoCallVideos', 'exportSessionAsPdf',
  'getSessionMainDocumentFacePhoto', 'getVisualMarkers', 'legacyGetCardFront', 'legacyGetCardBack', 'legacyGetPassport', 'legacyGetFace',
  'legacyGetFaceDocument', 'legacyGetFaceVideo', 'legacyGetGeneralDocument', 'searchScreeningPerson', 'getScreeningPersonDetails',
  'listScreeningMonitoringRecords', 'getScreeningDeltaRecords', 'getTrustedDatabaseRecord', 'checkInRegistry', 'compareFaces', 'checkSpoofing',
  'sandboxListCallbacks', 'legacyExtractCardFront', 'legacyExtractCardBack', 'legacyExtractLicenseFront', 'legacyExtractLicenseBack',
  'legacyExtractResidenceFront', 'legacyExtractResidenceBack', 'legacyExtractPassport', 'addBlacklistRecord',
];

/** Each operation's first documented request example, as company A's, and its path parameters. */
function requests(): Map<string, { fields: Record<string, unknown>; params: Record<string, string> }> {
  const found = new Map<string, { fields: Record<string, unknown>; params: Record<string, string> }>();
  for (const api of ['current', 'legacy', 'sandbox'] as ApiName[]) {
    const document = loadDocument(api) as any;
    for (const [path, item] of Object.entries<any>(document.paths)) {
      const operation = item.post ?? item.get;
      const media = operation?.requestBody && (Object.values(operation.requestBody.content)[0] as any);
      const example = media?.example ?? (Object.values(media?.examples ?? {})[0] as any)?.value;
      if (!example) continue;
      const fields = structuredClone(example);
      for (const key of ['companyKey', 'company_key']) if (key in fields) fields[key] = keyA;
      const params = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, String(fields[name!] ?? 'any')]));
      found.set(operation.operationId, { fields, params });
    }
  }
  return found;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The handlers with company A's makeGroup holding its transaction until `release()`, and `operation` noting that it ran. */
function held(handlers: Handlers, operation: string) {
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const writing = new Promise<void>((resolve) => (entered = resolve));
  const ran: string[] = [];
  const marker: Handler = async () => {
    ran.push(operation);
    return { json: {} };
  };
  const replaced: Handlers = {
    ...handlers,
    makeGroup: async () => {
      entered();
      await holding;
      ran.push('makeGroup');
      return { json: { result: 'grp-held' } };
    },
    [operation]: marker,
  };
  return { replaced, release, writing, ran };
}

async function runsBeside(operation: string): Promise<string[]> {
  const request = requests().get(operation);
  expect(request, `${operation} documents a request example`).toBeDefined();
  const t = await startSandbox();
  const { replaced, release, writing, ran } = held(t.sandbox.handlers, operation);
  t.sandbox.replaceHandlers(replaced);
  const write = t.sandbox.invoke('makeGroup', { companyKey: keyA, name: 'Held' });
  await writing;
  const asked = t.sandbox.invoke(operation, request!.fields, request!.params);
  for (let i = 0; i < 5; i++) await turn();
  const before = [...ran];
  release();
  await Promise.all([write, asked]);
  return before;
}

describe('while a write of its company is under way', () => {
  it.each(besideWrites)('%s runs at once', async (operation) => {
    expect(await runsBeside(operation)).toEqual([operation]);
  });

  it('an operation that writes (changeGroup) waits for it', async () => {
    const t = await startSandbox();
    const { replaced, release, writing, ran } = held(t.sandbox.handlers, 'changeGroup');
    t.sandbox.replaceHandlers(replaced);
    const first = t.sandbox.invoke('makeGroup', { companyKey: keyA, name: 'Held' });
    await writing;
    const changed = t.sandbox.invoke('changeGroup', { companyKey: keyA, groupId: 'grp-held', name: 'Other' });
    for (let i = 0; i < 5; i++) await turn();
    expect(ran).toEqual([]);
    release();
    await Promise.all([first, changed]);
    expect(ran).toEqual(['makeGroup', 'changeGroup']);
  });
});
