// Fresh bundles of the descriptions for the tests, made from the sources when the tests start, so a test
// never reads a stale dist/ left by an earlier build.
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

let bundled: Promise<Record<ApiName, string>> | undefined;

/**
 * Every API bundled fresh from the sources, as `npm run build` bundles them (openapi/bundle.mjs, Redocly's
 * library), once per test process: the project's files share it (isolate: false), and each caller gets
 * its own copy to read or change.
 */
export async function bundleAll(): Promise<Record<ApiName, OpenApiDocument>> {
  bundled ??= bundleTexts();
  const texts = await bundled;
  return Object.fromEntries(apiNames.map((name) => [name, JSON.parse(texts[name])])) as Record<ApiName, OpenApiDocument>;
}

async function bundleTexts(): Promise<Record<ApiName, string>> {
  const { bundle, loadConfig } = await import('@redocly/openapi-core');
  const config = await loadConfig({ configPath: join(openapiDir, 'redocly.yaml') });
  const texts = {} as Record<ApiName, string>;
  for (const name of apiNames) {
    const alias = `${name}@v1`;
    const root = config.resolvedConfig.apis?.[alias]?.root;
    if (!root) throw new Error(`redocly.yaml names no ${alias}`);
    const { bundle: result, problems } = await bundle({ ref: join(openapiDir, root), config: config.forAlias(alias) });
    const errors = problems.filter((problem) => problem.severity === 'error');
    if (errors.length) throw new Error(`${alias} does not bundle: ${errors.map((problem) => problem.message).join('\n')}`);
    texts[name] = JSON.stringify(result.parsed);
  }
  return texts;
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
