// How the breaking-change check puts each change of a `redocly diff` report into words: which operation,
// where in it, and why it breaks callers. The reports here have the shape redocly diff writes (see
// check-breaking.test.ts for the same words from real diffs), so every case runs without redocly.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { breakingChangesOf, formatChange, formatReport } from './check-breaking.mjs';

type Verdict = { ruleId: string; impact: string; message: string };
type Change = { api: string; operation: string; where: string; rule: string; what: string; why: string; pointer: string };

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

/** The released document: what callers were written against. */
const released = {
  openapi: '3.1.0',
  paths: {
    '/add-record': {
      post: {
        operationId: 'addRecord',
        parameters: [{ $ref: '#/components/parameters/Limit' }, { in: 'header' }],
        requestBody: json({ $ref: '#/components/schemas/AddRecordRequest' }),
        responses: {
          '200': { headers: { 'X-Rate': { schema: { type: 'integer' } } }, ...json({ $ref: '#/components/schemas/AddRecordResponse' }) },
          '400': json({ oneOf: [{ type: 'object' }, { type: 'object', properties: { argumentError: { type: 'string' } } }] }),
        },
      },
    },
    '/two-ops': { get: { operationId: 'readTwo' }, post: { operationId: 'writeTwo' } },
    '/no-id': { post: {} },
    '/referenced': { $ref: '#/components/pathItems/Referenced' },
  },
  webhooks: {
    'session-change': {
      post: {
        operationId: 'sessionChange',
        requestBody: json({ type: 'object', properties: { status: { type: 'string' } } }),
        responses: { '200': json({ type: 'object', properties: { ok: { type: 'boolean' } } }) },
      },
    },
  },
  components: {
    pathItems: { Referenced: { post: { operationId: 'referenced' } } },
    parameters: { Limit: { $ref: '#/components/parameters/LimitTarget' }, LimitTarget: { name: 'limit', in: 'query' } },
    schemas: {
      AddRecordRequest: { type: 'object', properties: { query: { $ref: '#/components/schemas/Query' } } },
      Query: { type: 'object', properties: { reason: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
      AddRecordResponse: { type: 'object', properties: { result: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } } },
    },
  },
};

/** The revision: `/add-record` lost its `limit` parameter and gained `dryRun`; `/added` is new. */
const revision = structuredClone(released) as any;
revision.paths['/add-record'].post.parameters = [{ name: 'dryRun', in: 'query' }];
revision.paths['/added'] = { post: { operationId: 'added' } };
delete revision.paths['/two-ops'];

const major = (ruleId: string, message = `${ruleId} happened`): Verdict => ({ ruleId, impact: 'major', message });
const minor = (ruleId: string): Verdict => ({ ruleId, impact: 'minor', message: `${ruleId} happened` });

/** The breaking changes of a report holding the given changes, between `released` and `revision`. */
function words(...changes: { path: string; kind?: string; verdicts?: Verdict[] }[]): Change[] {
  return breakingChangesOf({ changes: changes.map((change) => ({ kind: 'modified', ...change })) }, { api: 'fixture', baseDoc: released, revisionDoc: revision });
}
const one = (path: string, verdict: Verdict, kind = 'modified'): Change => {
  const found = words({ path, kind, verdicts: [verdict] });
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('which changes count as breaking', () => {
  it('only the verdicts redocly rates major, each as its own entry with its rule and message', () => {
    const found = words(
      { path: '#/paths/~1add-record/post/requestBody', verdicts: [minor('property-added'), major('request-body-became-required', 'The body is required.')] },
      { path: '#/paths/~1add-record/post/responses/200', verdicts: [minor('response-added')] },
      { path: '#/paths/~1add-record/post/responses/400' },
      { path: '#/paths/~1add-record/post/responses/200/headers/X-Rate', verdicts: [major('response-header-removed'), major('schema-type-changed')] },
    );
    expect(found.map((change) => [change.rule, change.what])).toEqual([
      ['request-body-became-required', 'The body is required.'],
      ['response-header-removed', 'response-header-removed happened'],
      ['schema-type-changed', 'schema-type-changed happened'],
    ]);
    expect(found.every((change) => change.api === 'fixture')).toBe(true);
    expect(found[0]!.pointer).toBe('#/paths/~1add-record/post/requestBody');
  });

  it('a report without changes has none', () => {
    expect(breakingChangesOf({}, { api: 'fixture', baseDoc: released, revisionDoc: revision })).toEqual([]);
  });
});

describe('the operation a change belongs to', () => {
  it('names the method, the path and the operationId', () => {
    expect(one('#/paths/~1add-record/post/requestBody', major('request-body-became-required')).operation).toBe('POST /add-record (addRecord)');
  });

  it('takes the operationId of a new operation from the revision', () => {
    expect(one('#/paths/~1added/post/requestBody', major('request-body-became-required'), 'added').operation).toBe('POST /added (added)');
  });

  it('leaves out the parentheses for an operation without operationId', () => {
    expect(one('#/paths/~1no-id/post/responses/200', major('response-removed'), 'removed').operation).toBe('POST /no-id');
  });

  it('lists every operation of the released path when the change is on the whole path', () => {
    expect(one('#/paths/~1two-ops', major('path-removed'), 'removed').operation).toBe('GET /two-ops (readTwo), POST /two-ops (writeTwo)');
  });

  it('follows a path item given by reference', () => {
    expect(one('#/paths/~1referenced', major('path-removed'), 'removed').operation).toBe('POST /referenced (referenced)');
  });

  it('says "path" or "callback" when the released document has no operation there', () => {
    expect(one('#/paths/~1added', major('path-removed')).operation).toBe('path /added');
    expect(one('#/webhooks/gone', major('path-removed'), 'removed').operation).toBe('callback gone');
  });

  it('says a callback is sent to the integrator', () => {
    expect(one('#/webhooks/session-change/post/requestBody', major('request-body-removed')).operation).toBe('callback session-change: POST to the integrator (sessionChange)');
  });

  it('calls a change outside paths and callbacks one of the API as a whole', () => {
    const change = one('#/components/securitySchemes/key', major('security-scheme-changed'));
    expect(change).toMatchObject({ operation: 'the API as a whole', where: 'components.securitySchemes.key' });
    expect(change.why).toBe('Callers that authenticate the released way may now be refused.');
  });
});

describe('where in the operation', () => {
  it('a field of the request body, through references', () => {
    expect(one('#/paths/~1add-record/post/requestBody/content/application~1json/schema/properties/query/properties/reason', major('schema-type-changed')).where)
      .toBe('request body (application/json): query.reason');
  });

  it('the items of an array, in both request and response', () => {
    expect(one('#/paths/~1add-record/post/requestBody/content/application~1json/schema/properties/query/properties/tags/items', major('schema-type-changed')).where)
      .toBe('request body (application/json): query.tags[]');
    expect(one('#/paths/~1add-record/post/responses/200/content/application~1json/schema/properties/result/items/properties/name', major('property-removed')).where)
      .toBe('response 200 (application/json): result[].name');
  });

  it('a parameter by its name: from the released document when it was removed, from the revision otherwise', () => {
    expect(one('#/paths/~1add-record/post/parameters/0', major('parameter-removed'), 'removed').where).toBe('query parameter `limit`');
    expect(one('#/paths/~1add-record/post/parameters/0', major('parameter-became-required')).where).toBe('query parameter `dryRun`');
  });

  it('a parameter by its position when it has no name', () => {
    expect(one('#/paths/~1add-record/post/parameters/1', major('parameter-removed'), 'removed').where).toBe('parameter 1');
  });

  it('a response header, a branch of a combinator and extra properties', () => {
    expect(one('#/paths/~1add-record/post/responses/200/headers/X-Rate', major('response-header-removed')).where).toBe('response 200, header `X-Rate`');
    expect(one('#/paths/~1add-record/post/responses/400/content/application~1json/schema/oneOf/1/properties/argumentError', major('enum-values-added')).where)
      .toBe('response 400 (application/json): oneOf[1].argumentError');
    expect(one('#/paths/~1add-record/post/responses/200/content/application~1json/schema/additionalProperties', major('schema-type-changed')).where)
      .toBe('response 200 (application/json): {additional}');
  });

  it('a media type with nothing before it, and escaped pointer segments', () => {
    expect(one('#/components/requestBodies/a~1b~0c/content/text~1plain', major('media-type-removed')).where).toBe('content (text/plain): components.requestBodies.a/b~c');
  });

  it('a tuple item and a JSON text field\'s decoded schema', () => {
    expect(one('#/paths/~1add-record/post/requestBody/content/multipart~1form-data/schema/properties/pair/prefixItems/0', major('schema-type-changed')).where)
      .toBe('request body (multipart/form-data): pair.prefixItems[0]');
    expect(one('#/paths/~1add-record/post/requestBody/content/multipart~1form-data/schema/properties/query/contentSchema/properties/reason', major('schema-type-changed')).where)
      .toBe('request body (multipart/form-data): query.reason');
  });

  it('nothing when the change is on the operation itself', () => {
    expect(one('#/paths/~1add-record/post', major('operation-removed'), 'removed').where).toBe('');
  });
});

describe('why it breaks callers', () => {
  const whyAt = (path: string, rule: string, kind = 'modified') => one(path, major(rule), kind).why;
  const requestField = '#/paths/~1add-record/post/requestBody/content/application~1json/schema/properties/query';
  const responseField = '#/paths/~1add-record/post/responses/200/content/application~1json/schema/properties/result';

  it('depends on whether the caller sends or reads the changed part', () => {
    expect(whyAt(requestField, 'property-removed')).toBe('Callers that still send this field have it ignored or rejected, and code that sets it stops type-checking.');
    expect(whyAt(responseField, 'property-removed')).toBe('Callers that read this field get undefined, and code that uses it stops type-checking.');
    expect(whyAt('#/paths/~1add-record/post/parameters/0', 'enum-values-removed')).toBe('Callers that send the removed value are now rejected, and code that uses it stops type-checking.');
  });

  it('uses the rule\'s one explanation when it does not depend on the direction', () => {
    expect(whyAt(responseField, 'parameter-became-required')).toBe('Existing calls that leave the parameter out are now rejected.');
  });

  it('reads a change on the whole operation as one to what the caller sends', () => {
    expect(whyAt('#/paths/~1add-record/post', 'schema-type-changed')).toBe('Callers that send a value of the old type are now rejected, and their code stops type-checking.');
  });

  it('falls back to a general explanation for a rule it does not know', () => {
    expect(whyAt(responseField, 'some-future-rule')).toBe('redocly diff rates this change major: a caller written against the released description can fail with it.');
  });

  it('swaps the directions for a callback, where the integrator reads the request and writes the response', () => {
    expect(whyAt('#/webhooks/session-change/post/requestBody/content/application~1json/schema/properties/status', 'property-removed'))
      .toBe("Integrators' callback handlers that read this field get undefined, and code that uses it stops type-checking.");
    expect(whyAt('#/webhooks/session-change/post/responses/200/content/application~1json/schema/properties/ok', 'schema-constraint-changed'))
      .toBe('Values that callback handlers could send before may now be rejected.');
  });

  it('has its own words for a callback that is gone', () => {
    expect(whyAt('#/webhooks/session-change', 'path-removed', 'removed')).toBe('Integrators no longer get this callback documented: its generated types are gone, so handlers that use them stop compiling.');
    expect(whyAt('#/webhooks/session-change/post', 'operation-removed', 'removed')).toBe('Integrators no longer get this callback documented: its generated types are gone, so handlers that use them stop compiling.');
    expect(whyAt('#/paths/~1two-ops', 'path-removed', 'removed')).toMatch(/^Callers of this operation now get an error \(the path no longer exists\)/);
  });

  // Every rule of redocly's diff-recommended set that can rate a change major has a sentence of its own
  // for each side, so the report never prints an empty or a general explanation for a known rule.
  const rules: [rule: string, request: RegExp, response: RegExp][] = [
    ['path-removed', /the path no longer exists/, /the path no longer exists/],
    ['operation-removed', /the method no longer exists on the path/, /the method no longer exists on the path/],
    ['operation-id-changed', /come from the operationId/, /come from the operationId/],
    ['operation-action-changed', /in the old direction/, /in the old direction/],
    ['parameter-removed', /have it ignored or rejected/, /have it ignored or rejected/],
    ['parameter-became-required', /leave the parameter out/, /leave the parameter out/],
    ['parameter-serialization-changed', /encode the parameter the old way/, /encode the parameter the old way/],
    ['request-body-became-required', /send no body/, /send no body/],
    ['request-body-removed', /no longer describes/, /no longer describes/],
    ['required-properties-added', /now rejected with 400/, /must now set the fields/],
    ['required-properties-removed', /for code that reads these values/, /can now get nothing/],
    ['property-removed', /still send this field/, /get undefined/],
    ['enum-values-added', /meets a value it does not know/, /meet a value they do not handle/],
    ['enum-values-removed', /send the removed value/, /types narrow/],
    ['schema-type-changed', /send a value of the old type/, /parse a value of a type/],
    ['schema-constraint-changed', /could send before may now be rejected/, /outside what the released description promised/],
    ['schema-combinator-changed', /requests that were valid/, /a shape they do not handle/],
    ['media-type-removed', /send this content type/, /get another one, or none/],
    ['response-removed', /lose its type/, /lose its type/],
    ['response-header-removed', /read this header get nothing/, /read this header get nothing/],
    ['security-requirement-changed', /authenticate the released way/, /authenticate the released way/],
    ['security-scheme-changed', /authenticate the released way/, /authenticate the released way/],
    ['server-removed', /this server address/, /this server address/],
  ];
  it.each(rules)('%s has its own words for what callers send and what they read', (rule, request, response) => {
    expect(whyAt(requestField, rule)).toMatch(request);
    expect(whyAt(responseField, rule)).toMatch(response);
  });
});

describe('the printed report', () => {
  const change: Change = {
    api: 'current',
    operation: 'POST /add-record (addRecord)',
    where: 'request body (application/json): query',
    rule: 'required-properties-added',
    what: 'Properties of `query` became required: `notes`.',
    why: 'Existing requests that leave these fields out are now rejected with 400.',
    pointer: '#/paths/~1add-record',
  };

  it('numbers a change and says what changed, where, under which rule, and why it breaks callers', () => {
    expect(formatChange(change, 0)).toBe([
      '1. POST /add-record (addRecord)',
      '   What changed: Properties of `query` became required: `notes`. (at request body (application/json): query) [required-properties-added]',
      '   Why it breaks callers: Existing requests that leave these fields out are now rejected with 400.',
    ].join('\n'));
    expect(formatChange({ ...change, where: '' }, 9).split('\n')).toEqual([
      '10. POST /add-record (addRecord)',
      '    What changed: Properties of `query` became required: `notes`. [required-properties-added]',
      '    Why it breaks callers: Existing requests that leave these fields out are now rejected with 400.',
    ]);
    expect(formatChange(change).split('\n')[0]).toBe('- POST /add-record (addRecord)');
    expect(formatChange(change).split('\n')[1]).toMatch(/^ {2}What changed/);
  });

  it('gives each API a line, with its changes indented under it, and the total at the end', () => {
    const root = '/repo';
    const report = formatReport({
      apis: [
        { name: 'current', status: 'compared', snapshot: '/repo/openapi/released/current.json', summary: { minor: 1, patch: 2 }, breaking: [change, change] },
        { name: 'legacy', status: 'compared', snapshot: '/repo/openapi/released/legacy.json', summary: { minor: 2, patch: 1 }, breaking: [] },
        { name: 'quiet', status: 'compared', snapshot: '/repo/openapi/released/quiet.json', breaking: [] },
        { name: 'sandbox', status: 'new', snapshot: '/repo/openapi/released/sandbox.json', breaking: [] },
        { name: 'gone', status: 'removed', snapshot: '/repo/openapi/released/gone.json', breaking: [{ ...change, operation: 'every operation of the API' }] },
      ],
      breaking: [change, change, change],
    }, { root });
    expect(report.split('\n')).toEqual([
      'Breaking changes against the last release (openapi/released/):',
      '',
      'current (against openapi/released/current.json): 2 breaking changes (1 addition, 2 other non-breaking changes).',
      '  1. POST /add-record (addRecord)',
      '     What changed: Properties of `query` became required: `notes`. (at request body (application/json): query) [required-properties-added]',
      '     Why it breaks callers: Existing requests that leave these fields out are now rejected with 400.',
      '  2. POST /add-record (addRecord)',
      '     What changed: Properties of `query` became required: `notes`. (at request body (application/json): query) [required-properties-added]',
      '     Why it breaks callers: Existing requests that leave these fields out are now rejected with 400.',
      'legacy (against openapi/released/legacy.json): no breaking change (2 additions, 1 other non-breaking change).',
      'quiet (against openapi/released/quiet.json): no breaking change (0 additions, 0 other non-breaking changes).',
      'sandbox: new since the last release (no openapi/released/sandbox.json yet), nothing to compare.',
      'gone: REMOVED since the last release.',
      '  1. every operation of the API',
      '     What changed: Properties of `query` became required: `notes`. (at request body (application/json): query) [required-properties-added]',
      '     Why it breaks callers: Existing requests that leave these fields out are now rejected with 400.',
      '',
      '3 breaking changes in all.',
    ]);
  });

  it('ends with the count in the singular, or with no breaking change', () => {
    const api = (breaking: Change[]) => ({ name: 'current', status: 'compared', snapshot: '/repo/openapi/released/current.json', summary: {}, breaking });
    expect(formatReport({ apis: [api([change])], breaking: [change] }, { root: '/repo' })).toMatch(/: 1 breaking change \(0 additions[\s\S]*\n\n1 breaking change in all\.$/);
    expect(formatReport({ apis: [api([])], breaking: [] }, { root: '/repo' })).toMatch(/\n\nNo breaking change\.$/);
  });
});
