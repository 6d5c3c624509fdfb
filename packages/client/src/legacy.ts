import { legacyOperationTable, type LegacyOperations, type LegacyPaths } from '@idv-toolkit/types';
import { buildOperationClient } from './operation-client.js';
import type { Methods, OperationResult, ParamsOf } from './operation-types.js';
import type { ClientOptions } from './options.js';

import { unprefixed, type Unprefixed } from './unprefixed.js';

/** The legacy client's method name of a legacy operationId: `legacyGetResult` -> `getResult`. */
export const legacyMethodName: (operationId: string) => string = unprefixed('legacy');

type LegacyMethods<Throw extends boolean> = {
  [Id in keyof LegacyOperations as Unprefixed<Id, 'legacy'>]: Methods<LegacyOperations, Throw>[Id];
};
type PostOf<Path extends keyof LegacyPaths> = NonNullable<LegacyPaths[Path]['post']>;

/** The legacy interface: multipart requests with snake_case fields, `/external-api/.../` paths. */
export type IdvLegacyClient<Throw extends boolean = true> = LegacyMethods<Throw> & {
  POST<Path extends keyof LegacyPaths>(
    path: Path,
    init: { body?: ParamsOf<PostOf<Path>>; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<OperationResult<PostOf<Path>>>;
};

/**
 * Creates a client of the legacy interface. Requests go as multipart form data with `company_key` added;
 * media endpoints resolve to a `Blob`.
 *
 * ```ts
 * const legacy = createLegacyClient({ companyKey: process.env.IDV_COMPANY_KEY!, baseUrl: 'http://127.0.0.1:4011' });
 * const result = await legacy.getResult({ session_token: sessionId });
 * ```
 */
export function createLegacyClient<Throw extends boolean = true>(options: ClientOptions<Throw>): IdvLegacyClient<Throw> {
  return buildOperationClient(options, legacyOperationTable, 'company_key', legacyMethodName) as IdvLegacyClient<Throw>;
}
