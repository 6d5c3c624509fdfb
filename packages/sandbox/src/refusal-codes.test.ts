// Which code a refused request gets (codes.ts, errors.ts): the first of the codes a handler prefers that
// the operation documents, else the operation's first documented code, else wrong-parameters (an operation
// that documents none); the refusal carries that code and whatever the handler adds to the answer.
import { expect, it } from 'vitest';
import { documented, refuse } from './codes.js';
import { ApiError } from './errors.js';

const route = (codes: string[]) => ({ route: { codes } }) as Parameters<typeof documented>[0];

it('is the first preferred code the operation documents', () => {
  expect(documented(route(['wrong-parameters', 'session-not-found', 'session-expired']), 'not-documented', 'session-expired', 'session-not-found')).toBe('session-expired');
});

it('is the operation\'s first documented code when it documents none of the preferred ones', () => {
  expect(documented(route(['wrong-parameters', 'session-not-found']), 'not-documented')).toBe('wrong-parameters');
  expect(documented(route(['session-not-found']))).toBe('session-not-found');
});

it('is wrong-parameters when the operation documents no code', () => {
  expect(documented(route([]), 'session-expired')).toBe('wrong-parameters');
});

it('is thrown as an ApiError with that code, and with what the handler adds', () => {
  let thrown: unknown;
  try {
    refuse(route(['wrong-parameters', 'session-expired']), 'session-expired');
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ApiError);
  expect(thrown).toMatchObject({ code: 'session-expired', message: 'session-expired', extra: {} });
  expect(new ApiError('already-exists', { existingRecord: { id: 'r1' } })).toMatchObject({ code: 'already-exists', extra: { existingRecord: { id: 'r1' } } });
});
