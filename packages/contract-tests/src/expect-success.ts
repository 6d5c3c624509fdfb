import { expect } from 'vitest';
import { createValidator, documents, type OperationEntry } from './documents.js';

export const validators = { current: createValidator(documents.current), legacy: createValidator(documents.legacy) };

/** Asserts that `data` is what the operation's 200 answer promises: its JSON schema, or a file of a listed type. */
export function expectValidSuccess(entry: OperationEntry, data: unknown) {
  const content = entry.operation.responses['200']!.content!;
  if (content['application/json']) {
    expect(validators[entry.api](['paths', entry.path, 'post', 'responses', '200', 'content', 'application/json', 'schema'], data)).toEqual([]);
  } else {
    expect(data).toBeInstanceOf(Blob);
    expect(Object.keys(content)).toContain((data as Blob).type.split(';')[0]);
  }
}
