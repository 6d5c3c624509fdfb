// The bundled descriptions, their operations, and Ajv validation of any of their schemas.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

export type Schema = { [key: string]: unknown; $ref?: string };
export type Document = { paths: Record<string, { post?: Operation }>; components: { schemas: Record<string, Schema> } };
export type MediaType = { schema?: Schema; examples?: Record<string, { value: unknown }> };
export type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { $ref?: string; content?: Record<string, MediaType> }>;
};
export type ApiName = 'current' | 'legacy';

export const documents: Record<ApiName, Document> = {
  current: JSON.parse(readFileSync(require.resolve('@idv-toolkit/openapi/current.json'), 'utf8')),
  legacy: JSON.parse(readFileSync(require.resolve('@idv-toolkit/openapi/legacy.json'), 'utf8')),
};

export type OperationEntry = { api: ApiName; path: string; operation: Operation };

export const operations: OperationEntry[] = (Object.keys(documents) as ApiName[]).flatMap((api) =>
  Object.entries(documents[api].paths).map(([path, item]) => ({ api, path, operation: item.post! })),
);

export function resolve(document: Document, node: Schema | undefined): Schema | undefined {
  let current = node;
  while (current?.$ref) current = current.$ref.slice(2).split('/').reduce<any>((at, key) => at[key.replaceAll('~1', '/')], document);
  return current;
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

export function createValidator(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'urn:idv:document');
  return (segments: string[], value: unknown): string[] => {
    const validate = ajv.getSchema(`urn:idv:document#/${segments.map(escape).join('/')}`) ?? ajv.compile({ $ref: `urn:idv:document#/${segments.map(escape).join('/')}` });
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}
