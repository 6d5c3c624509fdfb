import { currentOperationTable, type CurrentOperations, type CurrentPaths } from '@idv-toolkit/types';
import { buildOperationClient } from './operation-client.js';
import type { Methods, OperationResult, ParamsOf } from './operation-types.js';
import type { ClientOptions } from './options.js';

type PostOf<Path extends keyof CurrentPaths> = NonNullable<CurrentPaths[Path]['post']>;

/** The current interface: one method per operation, named by its operationId, and a path-style `POST`. */
export type IdvClient<Throw extends boolean = true> = Methods<CurrentOperations, Throw> & {
  POST<Path extends keyof CurrentPaths>(
    path: Path,
    init: { body?: ParamsOf<PostOf<Path>>; params?: { path?: Record<string, string> }; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<OperationResult<PostOf<Path>>>;
};

/**
 * Creates a client of the current interface (JSON bodies, camelCase). The company key is given once and
 * put into every request body.
 *
 * ```ts
 * const idv = createClient({ companyKey: process.env.IDV_COMPANY_KEY!, baseUrl: 'http://127.0.0.1:4010' });
 * const { result: id } = await idv.addBlacklistRecord({ query: { reason: 'Fraud', documentNumber: 'X1' } });
 * ```
 */
export function createClient<Throw extends boolean = true>(options: ClientOptions<Throw>): IdvClient<Throw> {
  return buildOperationClient(options, currentOperationTable, 'companyKey', (id) => id) as IdvClient<Throw>;
}
