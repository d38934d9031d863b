import { expect } from 'vitest';
import { isStrataError, type StrataError, type StrataErrorCode } from '../../src/core/errors.js';

/** The StrataError a promise rejects with, after checking its code. */
export async function strataFailure(promise: Promise<unknown>, code: StrataErrorCode): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isStrataError(error)) throw new Error(`expected StrataError ${code}, got ${String(error)}`);
  expect(error.code).toBe(code);
  return error;
}
