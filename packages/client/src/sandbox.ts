import { sandboxOperationTable, type SandboxOperations } from '@idv-toolkit/types';
import { buildOperationClient } from './operation-client.js';
import type { Methods } from './operation-types.js';
import type { ClientOptions } from './options.js';
import { unprefixed, type Unprefixed } from './unprefixed.js';

/**
 * The local sandbox's control API: finish sessions, reset state, read the callback log. Every operation
 * sends the company key in the JSON body, never in the URL (`listCallbacks()` is a POST for that reason).
 */
export type IdvSandboxClient<Throw extends boolean = true> = {
  [Id in keyof SandboxOperations as Unprefixed<Id, 'sandbox'>]: Methods<SandboxOperations, Throw>[Id];
};

/**
 * Creates a client of the sandbox's control API (`npm run sandbox`). The company key is that of a
 * sandbox company; the throttle is off by default, since the sandbox is local.
 *
 * ```ts
 * const control = createSandboxClient({ companyKey, baseUrl: 'http://127.0.0.1:4020' });
 * await control.completeSession({ sessionId: id, result: 'approved' });
 * await control.reset(); // forgets this company's data; `reset({ adminToken })` forgets everything
 * ```
 */
export function createSandboxClient<Throw extends boolean = true>(options: ClientOptions<Throw>): IdvSandboxClient<Throw> {
  return buildOperationClient({ rateLimit: false, ...options }, sandboxOperationTable, 'companyKey', unprefixed('sandbox')) as IdvSandboxClient<Throw>;
}
