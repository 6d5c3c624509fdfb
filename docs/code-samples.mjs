// The code samples of the reference (`x-codeSamples`, which Redoc shows as tabs beside each operation):
// TypeScript with the typed client, and curl. Generated at build time from each operation's first request
// example and the client's operation table (packages/types/src/generated/<api>-operations.ts), into the
// copy of the bundle that Redoc renders; never into openapi/. docs/tests/code-samples.test.ts type-checks
// every TypeScript sample in one tsc program and runs every sample against the mocks or the sandbox.
import { readFileSync } from 'node:fs';

/** How each document is called: its client factory, method prefix, key field, and local base URL. */
export const interfaces = {
  current: { factory: 'createClient', variable: 'idv', prefix: '', keyField: 'companyKey', baseUrl: 'http://127.0.0.1:4010' },
  legacy: { factory: 'createLegacyClient', variable: 'legacy', prefix: 'legacy', keyField: 'company_key', baseUrl: 'http://127.0.0.1:4011' },
  sandbox: { factory: 'createSandboxClient', variable: 'control', prefix: 'sandbox', keyField: 'companyKey', baseUrl: 'http://127.0.0.1:4020' },
};

/** The operation table the client is built from, read from its generated TypeScript (a JSON literal). */
export function readOperationTable(file) {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('export const operationTable = ');
  const end = text.indexOf('} as const;', start);
  if (start < 0 || end < 0) throw new Error(`${file}: no operationTable literal`);
  return JSON.parse(text.slice(start + 'export const operationTable = '.length, end + 1));
}

/** The client's method name for an operationId: the interface's prefix dropped (`legacyGetResult` -> `getResult`). */
export function methodName(api, operationId) {
  const { prefix } = interfaces[api];
  if (!prefix) return operationId;
  if (!operationId.startsWith(prefix)) throw new Error(`${operationId} lacks the ${prefix} prefix`);
  const rest = operationId.slice(prefix.length);
  return rest[0].toLowerCase() + rest.slice(1);
}

const identifier = /^[A-Za-z_$][\w$]*$/;
const quote = (text) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;

/**
 * A value as TypeScript source (or JSON with `json`), on one line when it fits in `width`, else one entry
 * per line. A string starting with NUL + `code:` is written as the code it holds.
 */
export function tsValue(value, indent = '', width = 100, json = false) {
  if (typeof value === 'string') return value.startsWith('\0code:') ? value.slice(6) : json ? JSON.stringify(value) : quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = indent + '  ';
  const key = (name) => (json ? JSON.stringify(name) : identifier.test(name) ? name : quote(name));
  const entries = Array.isArray(value)
    ? value.map((item) => tsValue(item, inner, width, json))
    : Object.entries(value).map(([name, item]) => `${key(name)}: ${tsValue(item, inner, width, json)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : json ? ['{', '}'] : ['{ ', ' }'];
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const flat = `${open}${entries.join(', ')}${close}`;
  if (flat.length + indent.length <= width && !flat.includes('\n')) return flat;
  // TypeScript takes a comma after the last entry; JSON does not.
  const lines = entries.map((entry, i) => `${inner}${entry}${json && i === entries.length - 1 ? '' : ','}`);
  return `${open.trim()}\n${lines.join('\n')}\n${indent}${close.trim()}`;
}

function resolve(document, node) {
  let schema = node;
  while (schema?.$ref) schema = schema.$ref.split('/').slice(1).reduce((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return schema;
}

/** Property schemas of an object schema, its allOf parts included. */
function propertiesOf(document, node) {
  const schema = resolve(document, node) ?? {};
  const properties = { ...(schema.properties ?? {}) };
  for (const part of schema.allOf ?? []) Object.assign(properties, propertiesOf(document, part));
  return properties;
}

/** The first request example of an operation: `example`, or the first of `examples`. */
function firstExample(document, media) {
  if (media.example !== undefined) return media.example;
  const first = Object.values(media.examples ?? {})[0];
  const example = resolve(document, first);
  if (example?.value === undefined) throw new Error('an operation without a request example');
  return example.value;
}

// A file field's sample reads a file of this name from the working directory.
const fileName = (field, mediaType) => `${field}.${mediaType === 'image/png' ? 'png' : mediaType === 'application/pdf' ? 'pdf' : 'jpg'}`;

/** Both samples of one operation. */
export function samplesFor(api, document, path, operation, table) {
  const { factory, variable, keyField, baseUrl } = interfaces[api];
  const meta = table[operation.operationId];
  if (!meta) throw new Error(`${api} ${operation.operationId}: not in the client's operation table`);
  const [mediaType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const example = media ? structuredClone(firstExample(document, media)) : {};
  delete example[keyField];
  const properties = media ? propertiesOf(document, media.schema) : {};
  const files = Object.entries(properties)
    .map(([name, node]) => [name, resolve(document, node)])
    .filter(([name, schema]) => schema?.format === 'binary' && name in example)
    .map(([name, schema]) => ({ name, file: fileName(name, schema.contentMediaType), type: schema.contentMediaType ?? 'application/octet-stream' }));
  const pathValues = Object.fromEntries(
    (meta.pathParams ?? []).map((name) => {
      const parameter = (operation.parameters ?? []).map((p) => resolve(document, p)).find((p) => p.in === 'path' && p.name === name);
      if (parameter?.example === undefined) throw new Error(`${operation.operationId}: path parameter ${name} has no example`);
      return [name, String(parameter.example)];
    }),
  );

  // TypeScript: the example's fields as the method's argument; files read from disk.
  const params = { ...example };
  for (const { name, file } of files) params[name] = `\0code:await readFile('${file}')`;
  const hasParams = Object.keys(params).length > 0;
  const pathOption = Object.keys(pathValues).length ? `{ path: ${tsValue(pathValues)} }` : '';
  const args = [hasParams || pathOption ? tsValue(params, '', 60) : '', pathOption].filter(Boolean).join(', ');
  const call = `await ${variable}.${methodName(api, operation.operationId)}(${args})`;
  const imports = [`import { ${factory} } from '@idv-toolkit/client';`];
  if (files.length) imports.unshift(`import { readFile } from 'node:fs/promises';`);
  const typescript = [
    ...imports,
    '',
    // Narrow lines: Redoc's sample panel is about 60 characters wide.
    `const ${variable} = ${factory}({`,
    '  companyKey: process.env.IDV_COMPANY_KEY!,',
    `  baseUrl: '${baseUrl}',`,
    '});',
    `const result = ${call};`,
    meta.response === 'json' ? 'console.log(result);' : 'console.log(result.type, result.size); // a Blob',
    '',
  ].join('\n');

  // curl: the same request, the key from the environment.
  let url = baseUrl + path;
  for (const [name, value] of Object.entries(pathValues)) url = url.replace(`{${name}}`, encodeURIComponent(value));
  let curl;
  if (mediaType === 'multipart/form-data') {
    const fields = [`  -F "${keyField}=$IDV_COMPANY_KEY"`];
    for (const [name, value] of Object.entries(example)) {
      const file = files.find((f) => f.name === name);
      if (file) fields.push(`  -F '${name}=@${file.file};type=${file.type}'`);
      else fields.push(`  -F ${shellQuote(`${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)}`);
    }
    curl = [`curl -X POST ${url} \\`, ...fields.map((field, i) => (i < fields.length - 1 ? `${field} \\` : field))].join('\n');
  } else {
    // A heredoc so that $IDV_COMPANY_KEY is expanded inside the JSON; anything else the shell would read is escaped.
    const json = tsValue({ [keyField]: '\0code:"$IDV_COMPANY_KEY"', ...escapedForHeredoc(example) }, '', 60, true);
    curl = [`curl -X POST ${url} \\`, `  -H 'Content-Type: application/json' \\`, `  -d @- <<EOF`, json, 'EOF'].join('\n');
  }
  return [
    { lang: 'TypeScript', label: 'TypeScript', source: typescript },
    { lang: 'curl', label: 'curl', source: `${curl}\n` },
  ];
}

/** Strings with `\\`, `$` and backquotes escaped, which an unquoted heredoc would otherwise interpret. */
const escapedForHeredoc = (value) =>
  typeof value === 'string'
    ? `\0code:${JSON.stringify(value).replace(/[\\$`]/g, (c) => `\\${c}`)}`
    : value && typeof value === 'object'
      ? Array.isArray(value) ? value.map(escapedForHeredoc) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapedForHeredoc(v)]))
      : value;

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/** Every operation of a bundle with its samples: [{ api, operationId, path, samples }]. */
export function allSamples(api, document, table) {
  const out = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      out.push({ api, operationId: operation.operationId, path, samples: samplesFor(api, document, path, operation, table) });
    }
  }
  return out;
}

/** A copy of the bundle with `x-codeSamples` on every operation. */
export function withCodeSamples(api, document, table) {
  const copy = structuredClone(document);
  const byId = new Map(allSamples(api, document, table).map((entry) => [entry.operationId, entry.samples]));
  for (const item of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(item)) if (operation?.operationId) operation['x-codeSamples'] = byId.get(operation.operationId);
  }
  return copy;
}
