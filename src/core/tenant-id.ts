import { describeValue } from './describe-value.js';
import { StrataError } from './errors.js';

/**
 * What a tenant id may be: 1 to 200 characters, no control characters, and no space at either end. Ids
 * are exact: " acme" is refused, never read as "acme".
 */
export const MAX_TENANT_ID_LENGTH = 200;

/** The rule, as error messages state it. */
export const TENANT_ID_RULE = `a tenant id is 1 to ${MAX_TENANT_ID_LENGTH} characters, without control characters or spaces at either end`;

export function isTenantId(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TENANT_ID_LENGTH && value.trim() === value && !/[\u0000-\u001f\u007f]/u.test(value);
}

/** The tenant id, checked; INVALID_INPUT stating the rule otherwise. */
export function checkTenantId(tenantId: unknown): string {
  if (!isTenantId(tenantId)) throw new StrataError('INVALID_INPUT', `Invalid tenant id ${describeValue(tenantId)}: ${TENANT_ID_RULE}.`);
  return tenantId;
}
