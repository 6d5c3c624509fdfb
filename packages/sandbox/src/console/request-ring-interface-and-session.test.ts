// What an entry of the console's request log says a request belonged to (request-ring.ts): the interface
// its path is part of, and the session it was about, read from the request's body (JSON or a form), its
// query string or the answer's JSON, in that order, and only from a value that can be an ID.
import { expect, it } from 'vitest';
import { exchange, ringOf, type Exchange } from './request-ring-in-process.test-helper.js';

const json = ['Content-Type', 'application/json'];

async function entryOf(request: Exchange) {
  const ring = ringOf([]);
  await exchange(ring, request);
  return ring.list(undefined)[0]!.entry;
}
const answerJson = (text: string) => (res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(text);
};

it('names the interface of each path: the control API, the legacy API, the applicant page, the current API', async () => {
  const apis: Record<string, string> = {};
  for (const path of ['/sandbox/companies', '/external-api/verification', '/widget', '/widget/form', '/api/v1/sessions', '/help/widget', '/sandboxes', '/external-apis']) {
    apis[path] = (await entryOf({ path })).api;
  }
  expect(apis).toEqual({
    '/sandbox/companies': 'sandbox',
    '/external-api/verification': 'legacy',
    '/widget': 'applicant-page',
    '/widget/form': 'applicant-page',
    '/api/v1/sessions': 'current',
    '/help/widget': 'current',
    '/sandboxes': 'current',
    '/external-apis': 'current',
  });
});

it("shows a dash for the path and method of a request that gave neither (as the server's log line does), and no address for a connection without one", async () => {
  const ring = ringOf([]);
  await exchange(ring, { method: null, path: undefined, url: '*' });
  const { entry } = ring.list(undefined)[0]!;
  expect([entry.method, entry.path, entry.api, entry.sourceIp]).toEqual(['-', '-', 'current', '']);
});

it('reads the session from the request body by any of its three names, before the query and the answer', async () => {
  for (const name of ['sessionId', 'session_token', 'sessionToken']) {
    const entry = await entryOf({ url: '/x?session_token=from-query', rawHeaders: json, body: [Buffer.from(JSON.stringify({ [name]: 'from-body' }))], answer: answerJson('{"id":"from-answer"}') });
    expect(entry.sessionId, name).toBe('from-body');
  }
  expect((await entryOf({ url: '/x?session_token=from-query', answer: answerJson('{"id":"from-answer"}') })).sessionId).toBe('from-query');
  expect((await entryOf({ answer: answerJson('{"id":"from-answer"}') })).sessionId).toBe('from-answer');
});

it('reads the session from a JSON body sent without a content type', async () => {
  expect((await entryOf({ body: [Buffer.from('{"sessionId":"sess-no-type"}')] })).sessionId).toBe('sess-no-type');
});

it('reads the session from a form field of a multipart request', async () => {
  const boundary = 'mut9-boundary';
  const form = [`--${boundary}`, 'Content-Disposition: form-data; name="session_token"', '', 'sess-in-a-form', `--${boundary}--`, ''].join('\r\n');
  const entry = await entryOf({ rawHeaders: ['Content-Type', `multipart/form-data; boundary=${boundary}`], body: [Buffer.from(form)] });
  expect(entry.sessionId).toBe('sess-in-a-form');
});

it('takes an ID of 1 to 200 characters, and passes over an empty or longer one to the next place', async () => {
  const longest = 's'.repeat(200);
  const withBody = (sessionId: string) => entryOf({ rawHeaders: json, body: [Buffer.from(JSON.stringify({ sessionId }))], answer: answerJson('{"id":"from-answer"}') });
  expect((await withBody(longest)).sessionId).toBe(longest);
  expect((await withBody('x')).sessionId).toBe('x');
  expect((await withBody('')).sessionId).toBe('from-answer');
  expect((await withBody(`${longest}s`)).sessionId).toBe('from-answer');
});

it('reads no fields from a JSON body that is not an object, and still shows the answer’s session', async () => {
  for (const body of ['null', '7', '"sessionId"', 'true']) {
    const entry = await entryOf({ rawHeaders: json, body: [Buffer.from(body)], answer: answerJson('{"id":"sess-after-' + body.length + '"}') });
    expect(entry.sessionId, body).toBe(`sess-after-${body.length}`);
  }
});

it('reads the session of an answer only from a JSON answer, whole', async () => {
  const plain = await entryOf({
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('{"id":"not-json-typed"}');
    },
  });
  expect(plain.sessionId).toBeNull();
  // An answer longer than the bytes kept, whose kept part alone parses (spaces after the object): cut, so not read.
  const cut = await entryOf({ answer: answerJson(`{"id":"cut-answer"}${' '.repeat(20_000)}`) });
  expect(cut.response.truncated).toBe(true);
  expect(cut.sessionId).toBeNull();
  // An answer typed JSON that does not parse is shown as it came, with no session.
  const broken = await entryOf({ answer: answerJson('{"id":"broken"') });
  expect([broken.response.text, broken.sessionId]).toEqual(['{"id":"broken"', null]);
  // A JSON answer with no content type is not read either.
  expect((await entryOf({ answer: (res) => res.end('{"id":"untyped"}') })).sessionId).toBeNull();
});
