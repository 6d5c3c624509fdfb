// Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) over a whole bundled document, so that a schema
// anywhere in it can be checked with its $refs resolved.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './bundles.js';

export function pointerTo(...segments: string[]): string {
  return '#/' + segments.map((s) => s.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

export function createDocumentValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
  addFormats.default(ajv);
  // `binary` marks raw file bytes in OpenAPI; any string stands for them in an example.
  ajv.addFormat('binary', true);
  const id = 'urn:idv:openapi-document';
  ajv.addSchema(document as object, id);
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (pointer: string, value: unknown): string[] => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: id + pointer });
      cache.set(pointer, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}

export function resolve<T>(document: OpenApiDocument, node: T): T {
  let current: unknown = node;
  while (current && typeof current === 'object' && '$ref' in current && typeof current.$ref === 'string') {
    const ref = current.$ref;
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document);
  }
  return current as T;
}
