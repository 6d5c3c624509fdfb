// Issue 16, items 3 and 5, on a scratch copy of the repository's descriptions and packages (a temporary
// folder; openapi/ is never touched): a callback added to the spec is raised by the sandbox and sent by
// `idv-trigger`, a property added to Group is in the sandbox's answers, and a renamed request field that a
// handler reads fails the type check at the handler's file and line. Only the pipeline runs in between
// (bundle, generate, compile): no code is edited.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'idv-spec-follows-'));
const companyKey = 'ck_test_spec_follows_0000';
const callbackApiKey = 'cb_test_spec_follows_0000';
const run = (cwd: string, ...args: string[]) =>
  promisify(execFile)(process.execPath, args, { cwd: join(work, cwd), env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' } });

const workspaces = { openapi: 'openapi', types: 'packages/types', client: 'packages/client', sandbox: 'packages/sandbox' };
const skipped = /(^|\/)(node_modules|\.turbo|dist|\.compile-\d+|\.dist-d|\.old-d|\.hf)$/;

/** The packages copied, node_modules linked to this checkout's but for the workspaces, which link to the copies. */
function scratchRepository() {
  for (const dir of Object.values(workspaces)) cpSync(join(repo, dir), join(work, dir), { recursive: true, filter: (source) => !skipped.test(source) });
  for (const file of ['scripts/compile.mjs', 'tsconfig.base.json']) cpSync(join(repo, file), join(work, file));
  mkdirSync(join(work, 'node_modules/@idv-toolkit'), { recursive: true });
  for (const entry of readdirSync(join(repo, 'node_modules'))) if (entry !== '@idv-toolkit' && entry !== '.vite') symlinkSync(join(repo, 'node_modules', entry), join(work, 'node_modules', entry));
  for (const [name, dir] of Object.entries(workspaces)) {
    symlinkSync(join(work, dir), join(work, 'node_modules/@idv-toolkit', name));
    if (existsSync(join(repo, dir, 'node_modules'))) symlinkSync(join(repo, dir, 'node_modules'), join(work, dir, 'node_modules'));
  }
  for (const name of readdirSync(join(repo, 'node_modules/@idv-toolkit'))) if (!(name in workspaces)) symlinkSync(join(repo, 'node_modules/@idv-toolkit', name), join(work, 'node_modules/@idv-toolkit', name));
}

const edit = (file: string, change: (text: string) => string) => {
  const path = join(work, file);
  const text = readFileSync(path, 'utf8');
  const changed = change(text);
  expect(changed).not.toBe(text);
  writeFileSync(path, changed);
};

/** A new callback, as docs/changing-the-api.md says to add one: its path item, its event schema, its `webhooks:` entry. */
function addCallback() {
  writeFileSync(
    join(work, 'openapi/current/webhooks/account-unlock-request.yaml'),
    `post:
  operationId: accountUnlockRequest
  tags: [Callbacks]
  summary: Receive a request to send an account unlock code by SMS
  description: Sent when the applicant asks to unlock a session by SMS.
  x-idempotent: false
  requestBody:
    required: true
    content:
      application/json:
        schema:
          $ref: ../components/schemas/AccountUnlockRequestEvent.yaml
        examples:
          unlock:
            summary: Send an unlock code
            value:
              callbackApiKey: cb_test_not_a_real_key_0000
              type: account-unlock-request
              sessionId: 6f1c2a7e-session-0001
              phoneNumber: '+995555000111'
              text: 'Your unlock code is 482913'
              unlockLink: https://verify.example.com/unlock
  responses:
    '200':
      description: The receiver accepted the callback.
`,
  );
  writeFileSync(
    join(work, 'openapi/current/components/schemas/AccountUnlockRequestEvent.yaml'),
    `title: AccountUnlockRequestEvent
type: object
description: Sent when the applicant asks to unlock a session by SMS.
required: [callbackApiKey, type, sessionId, phoneNumber, text, unlockLink]
properties:
  callbackApiKey:
    $ref: ./CallbackApiKey.yaml
  type:
    type: string
    const: account-unlock-request
    description: The event type.
  sessionId:
    $ref: ../../../common/components/schemas/SessionId.yaml
  phoneNumber:
    type: string
    description: Where the SMS goes.
  text:
    type: string
    description: The SMS text.
  unlockLink:
    type: string
    format: uri
    description: Where the applicant unlocks the session.
`,
  );
  edit('openapi/current/openapi.yaml', (text) => text.replace(/^webhooks:\n/m, 'webhooks:\n  account-unlock-request:\n    $ref: webhooks/account-unlock-request.yaml\n'));
}

/** A new optional property of Group, which make-group takes. */
function addGroupColour() {
  const colour = '  colour:\n    type: string\n    description: The colour the console shows the group in.\n';
  edit('openapi/current/components/schemas/Group.yaml', (text) => text.replace(/^example:/m, `${colour}example:`));
  edit('openapi/current/components/schemas/MakeGroupRequest.yaml', (text) => text.replace(/^properties:\n/m, `properties:\n${colour}`));
}

async function rebuild(...packages: string[]) {
  await run('openapi', 'bundle.mjs');
  await run('packages/types', 'scripts/generate.mjs');
  for (const dir of packages) await run(dir, '../../scripts/compile.mjs');
}

type Running = { listen(port?: number, host?: string): Promise<string>; close(): Promise<void>; dispatcher: { idle(): Promise<void> } };
let sandbox: Running | undefined;
let receiver: Server | undefined;
const received: Record<string, unknown>[] = [];
let receiverUrl = '';
let sandboxUrl: Promise<string>;

beforeAll(async () => {
  scratchRepository();
  addCallback();
  addGroupColour();
  await rebuild('packages/types', 'packages/client', 'packages/sandbox');
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      received.push(JSON.parse(text));
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;
  sandboxUrl = startScratchSandbox();
  await sandboxUrl;
}, 240_000);
afterAll(async () => {
  await sandbox?.close();
  receiver?.close();
  rmSync(work, { recursive: true, force: true });
});

async function startScratchSandbox(): Promise<string> {
  const { createSandbox } = await import(pathToFileURL(join(work, 'packages/sandbox/dist/server.js')).href);
  const { companiesFrom } = await import(pathToFileURL(join(work, 'packages/sandbox/dist/companies.js')).href);
  sandbox = createSandbox({ companies: companiesFrom({ companies: [{ companyKey, callbackApiKey, callbackUrl: receiverUrl }] }) }) as Running;
  return sandbox.listen(0, '127.0.0.1');
}

const post = async (url: string, body: object) => {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: answer.status, body: await answer.json() };
};

describe('a change to the spec reaches the sandbox and idv-trigger with no code change', () => {
  it('raises the new callback, filled from its example and checked against its schema', async () => {
    const url = await sandboxUrl;
    const { body: begun } = await post(`${url}/begin`, { companyKey });
    expect(await post(`${url}/sandbox/raise-event`, { companyKey, sessionId: begun.id, type: 'account-unlock-request', phoneNumber: '+995500000007' })).toEqual({ status: 200, body: { result: true } });
    expect((await post(`${url}/sandbox/raise-event`, { companyKey, sessionId: begun.id, type: 'account-unlock-request', fields: { unlockLink: 'not a uri' } })).body).toEqual({ argumentError: 'wrong-parameters' });
    await sandbox!.dispatcher.idle();
    const raised = received.filter((event) => event.type === 'account-unlock-request');
    expect(raised).toEqual([{ callbackApiKey, type: 'account-unlock-request', sessionId: begun.id, phoneNumber: '+995500000007', text: expect.stringMatching(/^Your unlock code is \d{6}$/), unlockLink: 'https://verify.example.com/unlock' }]);
    // The receiver helper of the copy's client knows the new callback too (its table is generated).
    const { parseCallback } = await import(pathToFileURL(join(work, 'packages/client/dist/index.js')).href);
    expect(parseCallback(raised[0], { callbackApiKey })).toMatchObject({ type: 'account-unlock-request' });
  });

  it('sends the new callback from idv-trigger', async () => {
    const before = received.length;
    const { stdout } = await run('packages/sandbox', 'dist/trigger.js', 'account-unlock-request', '--url', receiverUrl, '--key', callbackApiKey, '--phoneNumber', '+995500000008');
    expect(stdout).toContain('Sent account-unlock-request');
    expect(stdout).not.toContain(callbackApiKey);
    expect(received.slice(before)).toEqual([expect.objectContaining({ type: 'account-unlock-request', callbackApiKey, phoneNumber: '+995500000008' })]);
  });

  it('shows the new property of Group in the answers', async () => {
    const url = await sandboxUrl;
    const { body: made } = await post(`${url}/make-group`, { companyKey, name: 'Reviewers', colour: 'teal' });
    expect((await post(`${url}/list-groups`, { companyKey })).body).toEqual({ result: [{ id: made.result.id, name: 'Reviewers', colour: 'teal', memberUserIds: [] }] });
  });
});

describe('a rename in the spec that breaks a handler', () => {
  it('fails the type check at the handler\'s file and line', async () => {
    const handler = readFileSync(join(work, 'packages/sandbox/src/handlers/users-groups.ts'), 'utf8').split('\n');
    const lineOf = (text: string) => handler.findIndex((line) => line.includes(text)) + 1;
    // A request field the handler reads, and a field of an answer it makes.
    edit('openapi/current/components/schemas/MakeGroupRequest.yaml', (text) => text.replace(/^  memberIds:/m, '  members:'));
    edit('openapi/current/components/schemas/ListGroupsResponse.yaml', (text) => text.replace(/^required: \[result\]/m, 'required: [groups]').replace(/^  result:/m, '  groups:'));
    await rebuild('packages/types');
    // The published sources' check (tsconfig.build.json) of the handler and what it imports.
    writeFileSync(join(work, 'packages/sandbox/tsconfig.scratch.json'), JSON.stringify({ extends: './tsconfig.build.json', compilerOptions: { noEmit: true }, include: [], files: ['src/handlers/users-groups.ts'] }));
    const tsc = await run('packages/sandbox', join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.scratch.json').then(
      () => ({ code: 0, stdout: '' }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(tsc.code).not.toBe(0);
    expect(tsc.stdout).toContain(`src/handlers/users-groups.ts(${lineOf('body.memberIds')},`);
    expect(tsc.stdout).toMatch(/Property 'memberIds' does not exist/);
    expect(tsc.stdout).toContain(`src/handlers/users-groups.ts(${lineOf('listGroups:')},`);
  }, 180_000);
});
