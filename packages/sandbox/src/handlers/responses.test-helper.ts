// Checks a 200 body against the operation's schema in the bundled description, so that tests catch an
// answer the contract does not allow (the server checks requests, not its own answers).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { loadDocument, type ApiName } from '../spec.js';

const validators = new Map<string, ValidateFunction>();
const escape = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

function validatorFor(api: ApiName, operationId: string, mediaType: string): ValidateFunction {
  const key = `${api} ${operationId} ${mediaType}`;
  let validate = validators.get(key);
  if (validate) return validate;
  const document = loadDocument(api);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(document, 'urn:idv:check');
  const [path, item] = Object.entries(document.paths).find(([, item]) => item.post?.operationId === operationId) ?? [];
  if (!path || !item) throw new Error(`No operation ${operationId} in ${api}`);
  let response = item.post.responses['200'];
  let pointer = `#/paths/${escape(path)}/post/responses/200`;
  if (response.$ref) {
    pointer = response.$ref;
    response = pointer.slice(2).split('/').reduce((at: any, part: string) => at[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }
  if (!response.content?.[mediaType]) throw new Error(`${operationId} has no 200 body of type ${mediaType}`);
  validate = ajv.compile({ $ref: `urn:idv:check${pointer}/content/${escape(mediaType)}/schema` });
  validators.set(key, validate);
  return validate;
}

/** The schema problems of a 200 `body` of `operationId` (empty when it validates). */
export function responseProblems(api: ApiName, operationId: string, body: unknown, mediaType = 'application/json'): string[] {
  const validate = validatorFor(api, operationId, mediaType);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** Whether `operationId` documents a 200 body of `mediaType` (for byte answers: the Content-Type). */
export function documentsMediaType(api: ApiName, operationId: string, mediaType: string): boolean {
  try {
    validatorFor(api, operationId, mediaType);
    return true;
  } catch {
    return false;
  }
}
