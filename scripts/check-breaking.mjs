#!/usr/bin/env node
// `node scripts/check-breaking.mjs [--update-snapshots]`
//
// Compares each API that openapi/redocly.yaml names with what was last released of it, the bundled
// snapshot openapi/released/<api>.json, and prints every breaking change in plain words: the operation,
// what changed, and why it breaks callers. Exit 1 when there is any breaking change, 0 when there is none,
// 2 when the check itself could not run.
//
// The comparison is `redocly diff` with the rules in openapi/released/redocly-diff.yaml (diff-recommended):
// a change is breaking when a rule rates it `major`. An API without a snapshot is new since the last
// release (nothing to compare); a snapshot whose API is gone from redocly.yaml is a removed API (breaking).
//
// `--update-snapshots` rewrites openapi/released/ from the current descriptions (new APIs get a snapshot,
// removed ones lose theirs). Run it at release time only: see docs/changing-the-api.md.
import { AsyncLocalStorage } from 'node:async_hooks';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle, loadConfig } from '@redocly/openapi-core';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const RELEASED_DIR = 'openapi/released';
export const REDOCLY_CONFIG = 'openapi/redocly.yaml';
export const DIFF_CONFIG = `${RELEASED_DIR}/redocly-diff.yaml`;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// ---------------------------------------------------------------------------------------------- redocly
//
// Both steps run in this process: a `redocly` child process costs a Node start and the CLI's load (0.5 to
// 0.8 s of CPU) for each bundle and each diff, which made this check and its tests (and every mutant
// Stryker runs through them) slow.
// - Bundling is @redocly/openapi-core's `bundle`, as openapi/bundle.mjs does for `npm run build`: the same
//   bytes as `redocly bundle --output` (check-breaking-engine.test.ts compares them).
// - `redocly diff` is not in openapi-core's public API: it is in the CLI's own build, whose modules are
//   named by a hash and whose exports by a letter. CLI_BUILD names them for the pinned version (the
//   `diff` command's handler, the config loader and the logger it prints with); another version of
//   @redocly/cli makes the check fail until CLI_BUILD names the new build's, and
//   check-breaking-engine.test.ts compares the report with the command line's. To find them: the chunk
//   that ends `export{... as handleDiff}`, and in index.js the core chunk's exports bound to the names
//   of the config loader (`await X({configPath:...`) and of the logger (`X.info(`).

const require = createRequire(import.meta.url);
const cliDir = dirname(require.resolve('@redocly/cli/package.json'));
const CLI_BUILD = { version: '2.77.0', core: 'lib/chunks/KSRBMNUH.js', loadConfig: 'ya', logger: 'oa', diff: 'lib/chunks/HPXIL34S.js' };

/** What redocly printed, without its boxed notices and blank lines. */
const plainLines = (text) => text.split('\n').filter((line) => line.trim() && !/[║╔╚]/.test(line)).join('\n');

// What the CLI's logger prints during one diff: the report (its `output`) and its messages, kept apart
// for each diff (diffs may overlap).
const printedBy = new AsyncLocalStorage();

/** The CLI's diff command and its own config loader (the modules load once: import() keeps them). */
async function cliDiff() {
  const { version } = require('@redocly/cli/package.json');
  // Stryker disable next-line all: only another installed version of the CLI reaches it.
  if (version !== CLI_BUILD.version) throw new Error(`redocly diff failed: @redocly/cli ${version} is installed; CLI_BUILD in scripts/check-breaking.mjs names the modules of ${CLI_BUILD.version}`);
  const core = await import(pathToFileURL(join(cliDir, CLI_BUILD.core)).href);
  const { handleDiff } = await import(pathToFileURL(join(cliDir, CLI_BUILD.diff)).href);
  const logger = core[CLI_BUILD.logger];
  for (const level of ['info', 'warn', 'error']) logger[level] = (text) => void printedBy.getStore()?.messages.push(String(text));
  logger.output = (text) => void printedBy.getStore()?.report.push(String(text));
  return { handleDiff, loadCliConfig: core[CLI_BUILD.loadConfig] };
}

/** The APIs that openapi/redocly.yaml names, as `{ alias: 'current@v1', name: 'current' }`. */
export function listApis(root = ROOT) {
  const { apis } = parse(readFileSync(join(root, REDOCLY_CONFIG), 'utf8')) ?? {};
  return Object.keys(apis ?? {}).map((alias) => ({ alias, name: alias.split('@')[0] }));
}

export const snapshotPath = (name, root = ROOT) => join(root, RELEASED_DIR, `${name}.json`);

/** Bundles one API of openapi/redocly.yaml into `output` (an absolute path), as the release snapshots are made. */
export async function bundleApi(alias, output, { root = ROOT } = {}) {
  const config = await loadConfig({ configPath: join(root, REDOCLY_CONFIG) });
  const entry = config.resolvedConfig.apis?.[alias];
  if (!entry) throw new Error(`redocly bundle failed: ${REDOCLY_CONFIG} names no API ${alias}`);
  const file = resolvePath(root, dirname(REDOCLY_CONFIG), entry.root);
  // What `redocly bundle` prints when it fails, in its words.
  if (!existsSync(file)) throw new Error(`redocly bundle failed: ${relative(root, file)} does not exist or is invalid.\nPlease provide a valid path.`);
  const bundling = `bundling ${relative(root, file)} using configuration for api '${alias}'...`;
  let result;
  try {
    result = await bundle({ ref: file, config: config.forAlias(alias) });
  } catch (error) {
    throw new Error(`redocly bundle failed: ${bundling}\nFailed to parse API description at ${file}:\n  - ${error.message.split('\n')[0]}`);
  }
  const errors = result.problems.filter((problem) => problem.severity === 'error');
  if (errors.length) throw new Error(`redocly bundle failed: ${bundling}\n${errors.map((problem) => `  - ${problem.message}`).join('\n')}`);
  writeFileSync(output, JSON.stringify(result.bundle.parsed, null, 2));
  return output;
}

/** Runs `redocly diff base revision` and returns its JSON report (every change, with its impact). */
export async function diffReport(base, revision, { config = join(ROOT, DIFF_CONFIG) } = {}) {
  const { handleDiff, loadCliConfig } = await cliDiff();
  const printed = { report: [], messages: [] };
  await printedBy.run(printed, async () => {
    try {
      await handleDiff({ argv: { base, revision, format: 'json', 'fail-on': 'none' }, config: await loadCliConfig({ configPath: config }) });
    } catch (error) {
      // What the command line prints before it exits: what its logger said, then the error's message.
      throw new Error(`redocly diff failed: ${plainLines(`${printed.messages.join('')}\n${error.message}`)}`);
    }
  });
  return JSON.parse(printed.report.join(''));
}

// ------------------------------------------------------------------------------- plain-word descriptions

const decode = (segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~');
const segmentsOf = (pointer) => pointer.replace(/^#\/?/, '').split('/').filter((s) => s !== '').map(decode);

function resolve(doc, value) {
  for (let hops = 0; value && typeof value.$ref === 'string' && value.$ref.startsWith('#/') && hops < 20; hops++) {
    value = segmentsOf(value.$ref).reduce((node, key) => node?.[key], doc);
  }
  return value;
}

/** The node at a JSON pointer, following $refs on the way (the diff reports paths through references). */
function nodeAt(doc, segments) {
  let node = doc;
  for (const key of segments) if (key !== '$ref') node = resolve(doc, node)?.[key];
  return resolve(doc, node);
}

function operationsOf(doc, kind, key) {
  const item = resolve(doc, doc?.[kind]?.[key]) ?? {};
  return METHODS.filter((method) => item[method]).map((method) => ({ method, operationId: item[method].operationId }));
}

function operationLabel(kind, key, method, operationId) {
  const id = operationId ? ` (${operationId})` : '';
  return kind === 'webhooks' ? `callback ${key}: ${method.toUpperCase()} to the integrator${id}` : `${method.toUpperCase()} ${key}${id}`;
}

/** Where in the operation, in words: `request body (application/json): query.reason`, `response 200: result`. */
function describeWhere(doc, prefix, segments) {
  const words = [];
  const fields = [];
  for (let i = 0; i < segments.length; i++) {
    const [key, next] = [segments[i], segments[i + 1]];
    if (key === 'requestBody') words.push('request body');
    else if (key === 'responses' && next !== undefined) words.push(`response ${segments[++i]}`);
    else if (key === 'parameters' && next !== undefined) {
      const parameter = nodeAt(doc, [...prefix, ...segments.slice(0, i + 2)]);
      words.push(parameter?.name ? `${parameter.in ?? ''} parameter \`${parameter.name}\``.trim() : `parameter ${next}`);
      i++;
    } else if (key === 'headers' && next !== undefined) words.push(`header \`${segments[++i]}\``);
    else if (key === 'content' && next !== undefined) {
      const media = `(${segments[++i]})`;
      if (words.length > 0) words.push(`${words.pop()} ${media}`);
      else words.push(`content ${media}`);
    }
    else if (key === 'properties' && next !== undefined) fields.push(segments[++i]);
    else if (key === 'items') fields.push('[]');
    else if (['allOf', 'oneOf', 'anyOf', 'prefixItems'].includes(key) && next !== undefined) fields.push(`${key}[${segments[++i]}]`);
    else if (key === 'additionalProperties') fields.push('{additional}');
    else if (key === 'schema' || key === 'contentSchema' || key === '$ref') continue;
    else fields.push(key);
  }
  const field = fields.join('.').replace(/\.\[\]/g, '[]');
  return [words.join(', '), field].filter(Boolean).join(': ');
}

// Why each diff rule's change breaks someone, by the direction of the data: `request` is what the caller
// sends, `response` what the caller reads. For callbacks the integrator receives the request and sends
// the response, so the directions are swapped before this table is read.
const WHY = {
  'path-removed': {
    any: 'Callers of this operation now get an error (the path no longer exists), and the generated client loses the method, so code that calls it stops compiling.',
    callback: 'Integrators no longer get this callback documented: its generated types are gone, so handlers that use them stop compiling.',
  },
  'operation-removed': {
    any: 'Callers of this operation now get an error (the method no longer exists on the path), and the generated client loses the method, so code that calls it stops compiling.',
    callback: 'Integrators no longer get this callback documented: its generated types are gone, so handlers that use them stop compiling.',
  },
  'operation-id-changed': { any: 'The client method and the generated type names come from the operationId: code that uses the old name stops compiling.' },
  'operation-action-changed': { any: 'Callers send or expect the message in the old direction.' },
  'parameter-removed': { any: 'Callers that still send the parameter have it ignored or rejected, and code that passes it stops type-checking.' },
  'parameter-became-required': { any: 'Existing calls that leave the parameter out are now rejected.' },
  'parameter-serialization-changed': { any: 'Callers encode the parameter the old way, which the service now reads differently.' },
  'request-body-became-required': { any: 'Existing calls that send no body are now rejected.' },
  'request-body-removed': { any: 'Callers still send a body the operation no longer describes; it may be ignored or rejected, and the generated types no longer accept it.' },
  'required-properties-added': {
    request: 'Existing requests that leave these fields out are now rejected with 400, and code that builds the request stops type-checking until it sets them.',
    response: 'The generated types change; code that builds or mocks these bodies must now set the fields.',
  },
  'required-properties-removed': {
    response: 'Callers that rely on these fields always being present can now get nothing and fail when they read them.',
    request: 'The generated types change for code that reads these values.',
  },
  'property-removed': {
    response: 'Callers that read this field get undefined, and code that uses it stops type-checking.',
    request: 'Callers that still send this field have it ignored or rejected, and code that sets it stops type-checking.',
  },
  'enum-values-added': {
    response: 'Callers that handle each known value (a switch, a lookup table, an exhaustive type) meet a value they do not handle.',
    request: 'Code that reads these values back (mocks, validators) meets a value it does not know.',
  },
  'enum-values-removed': {
    request: 'Callers that send the removed value are now rejected, and code that uses it stops type-checking.',
    response: 'The generated types narrow; code that compares with the removed value stops type-checking.',
  },
  'schema-type-changed': {
    request: 'Callers that send a value of the old type are now rejected, and their code stops type-checking.',
    response: 'Callers parse a value of a type they do not expect, and their code stops type-checking.',
  },
  'schema-constraint-changed': {
    request: 'Values that callers could send before may now be rejected.',
    response: 'Callers may now receive values outside what the released description promised them.',
  },
  'schema-combinator-changed': {
    request: 'The allowed shapes (oneOf/anyOf/allOf) changed: requests that were valid may now be rejected.',
    response: 'The possible shapes (oneOf/anyOf/allOf) changed: callers may receive a shape they do not handle.',
  },
  'media-type-removed': {
    request: 'Callers that send this content type are now rejected.',
    response: 'Callers that expect this content type get another one, or none.',
  },
  'response-removed': { any: 'Callers that handle this answer lose its type, and code that reads it stops type-checking.' },
  'response-header-removed': { any: 'Callers that read this header get nothing.' },
  'security-requirement-changed': { any: 'Callers that authenticate the released way may now be refused.' },
  'security-scheme-changed': { any: 'Callers that authenticate the released way may now be refused.' },
  'server-removed': { any: 'Callers configured with this server address can no longer reach the API there.' },
  'api-removed': { any: 'Every caller of this API loses it: the whole description is gone from openapi/redocly.yaml.' },
};

function whyItBreaks(ruleId, direction, { callback = false } = {}) {
  const entry = WHY[ruleId];
  if (callback && entry?.callback) return entry.callback;
  const why = entry?.[direction] ?? entry?.any ?? entry?.request ??
    'redocly diff rates this change major: a caller written against the released description can fail with it.';
  // In a callback the integrator's handler is the one that reads the request and writes the response.
  return callback ? why.replace(/\bCallers\b/, "Integrators' callback handlers").replace(/\bcallers\b/g, 'callback handlers') : why;
}

const RENAME_WHY = {
  request: (removed, added) => `Existing requests that send ${removed} instead of ${added} are now rejected with 400, and code that builds the request stops type-checking until it sends ${added}.`,
  response: (removed, added) => `Callers that read ${removed} get undefined (the value now comes as ${added}), and code that uses it stops type-checking.`,
};
const codeList = (names) => names.map((name) => `\`${name}\``).join(', ');

/**
 * A rename, as redocly diff sees it, is a property removed from an object and a required one added to it;
 * said apart, a request's removal hid among the non-breaking changes (it is only a `patch` there), and a
 * response's came as two unrelated entries. So each object with both becomes one change, at the object,
 * whose verdict names both; the property changes and the object's verdicts on which properties are
 * required are folded into it. Returns the changes to read and the folded ones.
 */
function foldRenames(changes, { baseDoc, revisionDoc }) {
  const children = new Map();
  for (const change of changes) {
    const match = /^(.*)\/properties\/([^/]+)$/.exec(change.path ?? '');
    if (!match || (change.kind !== 'removed' && change.kind !== 'added')) continue;
    if (!children.has(match[1])) children.set(match[1], []);
    children.get(match[1]).push({ change, name: decode(match[2]) });
  }
  const folded = new Set();
  const renames = new Map();
  for (const [parent, kids] of children) {
    const requiredOf = (doc) => new Set(nodeAt(doc, segmentsOf(parent))?.required ?? []);
    const [before, now] = [requiredOf(baseDoc), requiredOf(revisionDoc)];
    const removed = kids.filter((kid) => kid.change.kind === 'removed');
    const added = kids.filter((kid) => kid.change.kind === 'added' && now.has(kid.name));
    if (!removed.length || !added.length) continue;
    for (const kid of [...removed, ...added]) folded.add(kid.change);
    const [removedNames, addedNames] = [removed.map((kid) => kid.name), added.map((kid) => kid.name)];
    // The object's own verdicts that only restate the rename: the new names became required, the old ones are no longer.
    const restates = (verdict) =>
      (verdict.ruleId === 'required-properties-added' && [...now].filter((name) => !before.has(name)).every((name) => addedNames.includes(name))) ||
      (verdict.ruleId === 'required-properties-removed' && [...before].filter((name) => !now.has(name)).every((name) => removedNames.includes(name)));
    renames.set(parent, {
      restates,
      verdict: {
        ruleId: 'property-removed, required-properties-added',
        impact: 'major',
        message: `Removed ${codeList(removedNames)}, added required ${codeList(addedNames)} (a rename, as callers see it).`,
        rename: { removed: codeList(removedNames), added: codeList(addedNames) },
      },
    });
  }
  const result = [];
  const placed = new Set();
  const place = (parent, at) => {
    if (placed.has(parent)) return;
    placed.add(parent);
    result.push({ path: parent, kind: 'modified', ...at, verdicts: [...(at?.verdicts ?? []).filter((v) => !renames.get(parent).restates(v)), renames.get(parent).verdict] });
  };
  for (const change of changes) {
    if (renames.has(change.path)) place(change.path, change);
    else if (folded.has(change)) place(/^(.*)\/properties\/[^/]+$/.exec(change.path)[1], undefined);
    else result.push(change);
  }
  return { changes: result, folded: [...folded] };
}

/**
 * The breaking changes of one `redocly diff` report, in plain words. `baseDoc` and `revisionDoc` are the
 * two documents, used to name operations and parameters.
 */
export function breakingChangesOf(report, { api, baseDoc, revisionDoc }) {
  const found = [];
  for (const change of foldRenames(report.changes ?? [], { baseDoc, revisionDoc }).changes) {
    const verdicts = (change.verdicts ?? []).filter((verdict) => verdict.impact === 'major');
    if (verdicts.length === 0) continue;
    const segments = segmentsOf(change.path ?? '');
    const doc = change.kind === 'removed' ? baseDoc : revisionDoc;
    const [kind, key, method] = segments;
    let operations = ['the API as a whole'];
    let rest = segments;
    if ((kind === 'paths' || kind === 'webhooks') && key !== undefined) {
      if (METHODS.includes(method)) {
        const operationId = (resolve(baseDoc, baseDoc?.[kind]?.[key])?.[method] ?? resolve(revisionDoc, revisionDoc?.[kind]?.[key])?.[method])?.operationId;
        operations = [operationLabel(kind, key, method, operationId)];
        rest = segments.slice(3);
      } else {
        const listed = operationsOf(baseDoc, kind, key);
        operations = listed.length ? listed.map((op) => operationLabel(kind, key, op.method, op.operationId)) : [`${kind === 'webhooks' ? 'callback' : 'path'} ${key}`];
        rest = segments.slice(2);
      }
    }
    let direction = rest[0] === 'responses' ? 'response' : rest[0] === 'requestBody' || rest[0] === 'parameters' ? 'request' : 'any';
    if (kind === 'webhooks' && direction !== 'any') direction = direction === 'request' ? 'response' : 'request';
    const where = describeWhere(doc, segments.slice(0, segments.length - rest.length), rest);
    for (const verdict of verdicts) {
      found.push({
        api,
        operation: operations.join(', '),
        where,
        rule: verdict.ruleId,
        what: verdict.message,
        why: verdict.rename ? renameWhy(verdict.rename, direction, kind === 'webhooks') : whyItBreaks(verdict.ruleId, direction, { callback: kind === 'webhooks' }),
        pointer: change.path,
      });
    }
  }
  return found;
}

function renameWhy({ removed, added }, direction, callback) {
  const why = (RENAME_WHY[direction] ?? RENAME_WHY.request)(removed, added);
  return callback ? why.replace(/^Existing requests/, 'Callbacks').replace(/^Callers/, "Integrators' callback handlers").replace(/\bcallers\b/g, 'callback handlers') : why;
}

/** Compares two bundled documents (paths to JSON files) and returns the breaking changes and the counts of all changes. */
export async function compareDocuments(base, revision, { api = 'api', config } = {}) {
  const report = await diffReport(base, revision, config ? { config } : {});
  const baseDoc = JSON.parse(readFileSync(base, 'utf8'));
  const revisionDoc = JSON.parse(readFileSync(revision, 'utf8'));
  // A change folded into a rename is counted with it, not again among the additions and other changes.
  const summary = { ...report.summary };
  for (const change of foldRenames(report.changes ?? [], { baseDoc, revisionDoc }).folded) if (summary[change.impact] > 0) summary[change.impact] -= 1;
  return {
    breaking: breakingChangesOf(report, { api, baseDoc, revisionDoc }),
    summary,
    versions: report.infoVersions ?? {},
  };
}

// ------------------------------------------------------------------------------------- the whole check

/**
 * Bundles every API of openapi/redocly.yaml and compares each with its snapshot in openapi/released/.
 * Returns `{ apis: [{ name, alias, status: 'compared' | 'new' | 'removed', ... }], breaking: [...] }`.
 */
export async function findBreakingChanges({ root = ROOT } = {}) {
  const apis = listApis(root);
  const work = mkdtempSync(join(tmpdir(), 'idv-breaking-'));
  try {
    const results = await Promise.all(
      apis.map(async ({ alias, name }) => {
        const snapshot = snapshotPath(name, root);
        if (!existsSync(snapshot)) return { alias, name, status: 'new', snapshot, breaking: [] };
        const current = await bundleApi(alias, join(work, `${name}.json`), { root });
        const diff = await compareDocuments(snapshot, current, { api: name, config: join(root, DIFF_CONFIG) });
        return { alias, name, status: 'compared', snapshot, ...diff };
      }),
    );
    const names = new Set(apis.map((api) => api.name));
    for (const name of releasedNames(root).filter((n) => !names.has(n))) {
      const snapshot = snapshotPath(name, root);
      const breaking = [{
        api: name,
        operation: 'every operation of the API',
        where: '',
        rule: 'api-removed',
        what: `The API \`${name}\` was released (${relative(root, snapshot)}) but openapi/redocly.yaml no longer names it.`,
        why: whyItBreaks('api-removed'),
        pointer: '#',
      }];
      results.push({ alias: null, name, status: 'removed', snapshot, breaking });
    }
    return { apis: results, breaking: results.flatMap((result) => result.breaking) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function releasedNames(root) {
  const dir = join(root, RELEASED_DIR);
  return existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.json')).map((file) => file.replace(/\.json$/, '')) : [];
}

/**
 * Rewrites openapi/released/ from the current descriptions: what a release does once it has published.
 * Returns one `{ name, status: 'created' | 'updated' | 'unchanged' | 'removed' }` per snapshot.
 */
export async function updateSnapshots({ root = ROOT } = {}) {
  mkdirSync(join(root, RELEASED_DIR), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'idv-snapshots-'));
  try {
    const apis = listApis(root);
    const results = await Promise.all(
      apis.map(async ({ alias, name }) => {
        const fresh = await bundleApi(alias, join(work, `${name}.json`), { root });
        const snapshot = snapshotPath(name, root);
        const before = existsSync(snapshot) ? readFileSync(snapshot, 'utf8') : null;
        if (before === readFileSync(fresh, 'utf8')) return { name, status: 'unchanged', snapshot };
        copyFileSync(fresh, snapshot);
        return { name, status: before === null ? 'created' : 'updated', snapshot };
      }),
    );
    const names = new Set(apis.map((api) => api.name));
    for (const name of releasedNames(root).filter((n) => !names.has(n))) {
      rmSync(snapshotPath(name, root));
      results.push({ name, status: 'removed', snapshot: snapshotPath(name, root) });
    }
    return results;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One breaking change in plain words, as the report prints it. */
export function formatChange(change, index) {
  const head = index === undefined ? '-' : `${index + 1}.`;
  const pad = ' '.repeat(head.length + 1);
  return [
    `${head} ${change.operation}`,
    `${pad}What changed: ${change.what}${change.where ? ` (at ${change.where})` : ''} [${change.rule}]`,
    `${pad}Why it breaks callers: ${change.why}`,
  ].join('\n');
}

/** The whole report of findBreakingChanges(), as plain text. */
export function formatReport(result, { root = ROOT } = {}) {
  const lines = [`Breaking changes against the last release (${RELEASED_DIR}/):`, ''];
  for (const api of result.apis) {
    const snapshot = relative(root, api.snapshot);
    if (api.status === 'new') {
      lines.push(`${api.name}: new since the last release (no ${snapshot} yet), nothing to compare.`);
      continue;
    }
    if (api.status === 'removed') {
      lines.push(`${api.name}: REMOVED since the last release.`);
    } else {
      const { minor = 0, patch = 0 } = api.summary ?? {};
      const others = `${minor} addition${minor === 1 ? '' : 's'}, ${patch} other non-breaking change${patch === 1 ? '' : 's'}`;
      const count = api.breaking.length;
      lines.push(`${api.name} (against ${snapshot}): ${count === 0 ? 'no breaking change' : `${count} breaking change${count === 1 ? '' : 's'}`} (${others}).`);
    }
    api.breaking.forEach((change, index) => lines.push(formatChange(change, index).replace(/^/gm, '  ')));
  }
  const total = result.breaking.length;
  lines.push('', total === 0 ? 'No breaking change.' : `${total} breaking change${total === 1 ? '' : 's'} in all.`);
  return lines.join('\n');
}

// ------------------------------------------------------------------------------------------------- CLI

/**
 * The command line, with what it reads and prints passed in for tests: returns the exit code (0 no breaking
 * change, 1 breaking changes; a throw means the check could not run, exit 2).
 */
export async function main(argv, { root = ROOT, changesetDir, log = console.log } = {}) {
  if (argv.includes('--help')) {
    log('Usage: node scripts/check-breaking.mjs [--update-snapshots]\n  exit 0: no breaking change; 1: breaking changes; 2: the check could not run');
    return 0;
  }
  if (argv.includes('--update-snapshots')) {
    for (const { snapshot, status } of await updateSnapshots({ root })) log(`${relative(root, snapshot)}: ${status}`);
    return 0;
  }
  const result = await findBreakingChanges({ root });
  log(formatReport(result, { root }));
  if (result.breaking.length === 0) return 0;
  const { checkBreakingGate } = await import('./breaking-gate.mjs');
  const gate = checkBreakingGate(result.breaking, { changesetDir });
  log('');
  log(gate.ok ? `Pending changesets release them as major: ${gate.majorChangesets.join(', ')}. They become the new baseline at release time (--update-snapshots).` : gate.message);
  return 1;
}

// Stryker disable all: this entry point runs only as a child process, where no mutant is ever active.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`check-breaking: ${error.message}`);
      process.exit(2);
    },
  );
}
