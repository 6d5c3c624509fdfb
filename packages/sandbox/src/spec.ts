// Routes and request validation, built from the bundled OpenAPI documents (at start, and again once
// `npm run dev` has written new bundles): nothing about an operation's path, body shape or error codes is
// written here a second time.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

export type ApiName = 'current' | 'legacy' | 'sandbox';
export const apiNames: ApiName[] = ['current', 'legacy', 'sandbox'];

type Schema = Record<string, any>;
type Document = { paths: Record<string, Record<string, any>>; components?: Record<string, Record<string, Schema>> };

export type Route = {
  api: ApiName;
  method: 'POST' | 'GET';
  path: string;
  match: RegExp;
  operationId: string;
  body: 'json' | 'multipart' | 'query';
  /** The 400 body's key: `argumentError`, or `error` for trusted-database and registry checks. */
  errorKey: 'argumentError' | 'error';
  /** The fixed codes the operation documents. */
  codes: string[];
  /** Form fields that carry JSON text (`contentMediaType: application/json`), with their decoded schema. */
  jsonTextFields: { name: string; validate: LazyValidator }[];
  /** Form fields that carry files (`format: binary`). */
  fileFields: string[];
  /**
   * Top-level fields whose strings may be longer than the text limit: files as data URIs or base64, and
   * form fields of JSON text (whose decoded content is checked against the limits instead).
   */
  bigFields: ReadonlySet<string>;
  /** Whether the operation takes files, so gets the larger body limit. */
  uploads: boolean;
  validate: LazyValidator;
  /** The JSON example of the operation's 200 answer, if it documents one: what an operation without a handler answers. */
  example?: unknown;
};

/** The example of an operation's 200 JSON answer: the media type's `example`, else its first `examples` entry. */
function okExample(document: Document, operation: any): unknown {
  const media = resolve(document, operation.responses?.['200'])?.content?.['application/json'];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<any>(media.examples ?? {})[0];
  return resolve(document, first)?.value;
}

const documentPaths = new Map<ApiName, string>();
const documentPath = (api: ApiName): string => {
  let path = documentPaths.get(api);
  if (path === undefined) documentPaths.set(api, (path = require.resolve(`@idv-toolkit/openapi/${api}.json`)));
  return path;
};

export function loadDocument(api: ApiName): Document {
  return JSON.parse(readFileSync(documentPath(api), 'utf8'));
}

/**
 * What tells one version of the three bundles from the next: each file's inode, size and modification
 * time. A bundle written in place or renamed over changes it; reading it is three stat calls.
 */
function documentsVersion(): string {
  return apiNames
    .map((api) => {
      const { ino, size, mtimeMs } = statSync(documentPath(api));
      return `${ino}:${size}:${mtimeMs}`;
    })
    .join(' ');
}

const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

function resolve(document: Document, node: any): any {
  while (node?.$ref) node = node.$ref.slice(2).split('/').reduce((at: any, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return node;
}

function constants(document: Document, node: any): string[] {
  const schema = resolve(document, node);
  if (!schema) return [];
  const own = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : [];
  return [...own, ...[...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((branch: any) => constants(document, branch))];
}

function errorShape(document: Document, operation: any): { errorKey: Route['errorKey']; codes: string[] } {
  const schema = resolve(document, resolve(document, operation.responses?.['400'])?.content?.['application/json']?.schema);
  const branches = [schema, ...(schema?.oneOf ?? []), ...(schema?.anyOf ?? [])].map((b: any) => resolve(document, b));
  for (const key of ['argumentError', 'error'] as const) {
    const holders = branches.filter((b: any) => b?.properties?.[key]);
    if (holders.length) return { errorKey: key, codes: holders.flatMap((b: any) => constants(document, b.properties[key])) };
  }
  return { errorKey: 'argumentError', codes: [] };
}

let built: { version: string; routes: readonly Route[] } | undefined;

/**
 * The routes of the three documents as they are now. Built once per version of the bundles and shared by
 * every sandbox of the process: a route holds nothing that a request changes. A bundle rewritten since
 * (`npm run dev` after a save) is read again, so that an operation added to the spec gets its route and
 * its request check. Reading the documents takes a few ms; compiling a validator is left to its first use
 * (`lazyValidator`), since compiling all of them took most of the start-up.
 */
export function buildRoutes(): Route[] {
  // The version is taken before the files are read: a bundle written meanwhile is read again next time.
  const version = documentsVersion();
  if (built?.version !== version) built = { version, routes: Object.freeze(readRoutes()) };
  return [...built.routes];
}

/**
 * Finds the route of a request as `routes.find` in document order would (first match wins), with one map
 * look-up for a path without parameters instead of up to a hundred regular expressions.
 */
export function routeFinder(routes: readonly Route[]): (method: string | undefined, path: string) => Route | undefined {
  // By method, then path: no key string is built (and hashed) per request.
  const exact = new Map<string, Map<string, Route | undefined>>();
  for (const route of routes) {
    if (/[{}]/.test(route.path)) continue;
    let paths = exact.get(route.method);
    if (!paths) exact.set(route.method, (paths = new Map()));
    if (!paths.has(route.path)) paths.set(route.path, routes.find((r) => r.method === route.method && r.match.test(route.path)));
  }
  return (method, path) => (method === undefined ? undefined : exact.get(method)?.get(path)) ?? routes.find((r) => r.method === method && r.match.test(path));
}

/**
 * A validator compiled on its first call (a few ms each; all of them together took about 0.5 s at start).
 * `compiled()` compiles it ahead of use: the sandbox does so for every route in idle turns after it listens.
 */
export type LazyValidator = ValidateFunction & { compiled(): ValidateFunction };

function lazyValidator(compile: () => ValidateFunction): LazyValidator {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data) as boolean;
    validate.errors = compiled.errors;
    return valid;
  }) as LazyValidator;
  validate.compiled = () => (compiled ??= compile());
  return validate;
}

/**
 * Ajv for one document, made when its first validator is compiled: loading Ajv took about a quarter of
 * the start-up. The documents are not checked against the JSON Schema meta-schema here (that compiled the
 * meta-schema and walked every document at each start): spec.test.ts does it once per test run, and the
 * documents are linted before they are bundled.
 */
function ajvFor(document: Document, id: string, validateSchema: boolean, unicode = true): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats');
  // `unicode: false` is marked deprecated by Ajv 8 (it warns once per instance, silenced here) but is
  // honoured by Ajv 8.20.0, pinned exactly.
  const files = unicode ? {} : { unicode, logger: { log: console.log, warn: () => {}, error: console.error } };
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, validateSchema, ...files });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, id);
  return ajv;
}

/**
 * The routes, validators not yet compiled; `validateSchema` checks each document against the meta-schema
 * (tests); `load` gives each API's document (the bundled ones; tests give documents written for a case).
 */
export function readRoutes(validateSchema = false, load: (api: ApiName) => Document = loadDocument): Route[] {
  const routes: Route[] = [];
  for (const api of apiNames) {
    const document = load(api);
    const id = `urn:idv:${api}`;
    let made: Ajv2020 | undefined;
    const ajv = { compile: (schema: object) => (made ??= ajvFor(document, id, validateSchema)).compile(schema) };
    // Operations that take files count a string's length in UTF-16 units (`.length`), not code points: Ajv
    // counts code points one character at a time, about 600 ms for a 16 MiB base64 file with a minLength.
    // A file's text is ASCII, where the two agree; their other fields are IDs and keys.
    let madeForFiles: Ajv2020 | undefined;
    const ajvForFiles = { compile: (schema: object) => (madeForFiles ??= ajvFor(document, id, validateSchema, false)).compile(schema) };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['post', 'get'] as const) {
        const operation = item[method];
        if (!operation) continue;
        const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
        const base = { api, method: method.toUpperCase() as Route['method'], path, match: new RegExp(`^${pattern}$`), operationId: operation.operationId, example: okExample(document, operation), ...errorShape(document, operation) };
        if (method === 'get') {
          const parameters = (operation.parameters ?? []).map((p: any) => resolve(document, p));
          const schema = {
            type: 'object',
            properties: Object.fromEntries(parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, resolve(document, p.schema)])),
            required: parameters.filter((p: any) => p.in === 'query' && p.required).map((p: any) => p.name),
          };
          routes.push({ ...base, body: 'query', jsonTextFields: [], fileFields: [], bigFields: new Set(), uploads: false, validate: lazyValidator(() => ajv.compile(schema)) });
          continue;
        }
        const [mediaType, media] = Object.entries<any>(operation.requestBody.content)[0]!;
        // Point at the schema itself, so that pointers into its properties resolve.
        const pointer = media.schema.$ref ? `${id}${media.schema.$ref}` : `${id}#/paths/${escape(path)}/post/requestBody/content/${escape(mediaType)}/schema`;
        const schema = resolve(document, media.schema);
        const properties = Object.entries<any>(schema?.properties ?? {}).map(([name, p]) => [name, resolve(document, p)] as const);
        const isFile = (p: any) => p?.format === 'binary' || p?.contentEncoding !== undefined || (typeof p?.pattern === 'string' && p.pattern.startsWith('^data:'));
        const files = properties.filter(([, p]) => isFile(p)).map(([name]) => name);
        const jsonText = properties.filter(([, p]) => p?.contentMediaType === 'application/json').map(([name]) => name);
        routes.push({
          bigFields: new Set([...files, ...jsonText]),
          uploads: files.length > 0,
          ...base,
          body: mediaType === 'multipart/form-data' ? 'multipart' : 'json',
          validate: lazyValidator(() => (files.length ? ajvForFiles : ajv).compile({ $ref: pointer })),
          fileFields: properties.filter(([, p]) => p?.format === 'binary').map(([name]) => name),
          jsonTextFields: properties
            .filter(([, p]) => p?.contentMediaType === 'application/json' && p.contentSchema)
            .map(([name]) => ({ name, validate: lazyValidator(() => ajv.compile({ $ref: `${pointer}/properties/${escape(name)}/contentSchema` })) })),
        });
      }
    }
  }
  return routes;
}

export type ValidationProblem = Pick<ErrorObject, 'instancePath' | 'keyword' | 'params' | 'message'>;
