// Fresh bundles of both descriptions for the tests, made once per test file into a temporary folder, so a
// test never reads a stale dist/ left by an earlier build.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const openapiDir = fileURLToPath(new URL('..', import.meta.url));
export const apiNames = ['current', 'legacy', 'sandbox'] as const;
export type ApiName = (typeof apiNames)[number];

export const redoclyEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

export type OpenApiDocument = {
  openapi: string;
  info: { version: string; title: string; description?: string };
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
export type Schema = Record<string, unknown>;
export type MediaType = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> };
export type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  'x-idempotent'?: unknown;
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
};

export function bundleAll(): Record<ApiName, OpenApiDocument> {
  const out = mkdtempSync(join(tmpdir(), 'idv-bundle-'));
  const documents = {} as Record<ApiName, OpenApiDocument>;
  for (const name of apiNames) {
    const file = join(out, `${name}.json`);
    execFileSync('npx', ['redocly', 'bundle', `${name}@v1`, '--output', file], {
      cwd: openapiDir,
      env: redoclyEnv,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    documents[name] = JSON.parse(readFileSync(file, 'utf8'));
  }
  rmSync(out, { recursive: true, force: true });
  return documents;
}

export type OperationEntry = { api: ApiName; kind: 'path' | 'webhook'; key: string; method: string; operation: Operation };

export function operationsOf(api: ApiName, document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [kind, items] of [['path', document.paths], ['webhook', document.webhooks ?? {}]] as const) {
    for (const [key, item] of Object.entries(items)) {
      for (const [method, operation] of Object.entries(item)) {
        if (['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'].includes(method)) {
          entries.push({ api, kind, key, method, operation });
        }
      }
    }
  }
  return entries;
}
