// Friendly names for the generated types of both interfaces. Everything here is re-exported from
// src/generated/ (made from openapi/ by `npm run generate`); nothing is defined or listed twice.
/** Every type generated from each description, by its schema name: `Current.BlacklistRecord`. */
export type * as Current from './generated/current.js';
export type * as Legacy from './generated/legacy.js';

export type {
  paths as CurrentPaths,
  operations as CurrentOperations,
  components as CurrentComponents,
  webhooks as CurrentWebhooks,
} from './generated/current.js';
export type { paths as LegacyPaths, operations as LegacyOperations, components as LegacyComponents } from './generated/legacy.js';
export type { paths as SandboxPaths, operations as SandboxOperations } from './generated/sandbox.js';
export type * as Sandbox from './generated/sandbox.js';

/** Path, retry safety and body encodings of every operation, by operationId. */
export { operationTable as currentOperationTable } from './generated/current-operations.js';
export { operationTable as legacyOperationTable } from './generated/legacy-operations.js';
export { operationTable as sandboxOperationTable } from './generated/sandbox-operations.js';
/** Required fields, field types and an example of every callback, by its type. */
export { webhookTable } from './generated/current-webhooks.js';

// Every schema of the current and legacy interfaces by its name (`BlacklistRecord`, `KycSessionResult`),
// each callback's event type (`SessionChangeEvent`), `CallbackType` and the `CallbackEvent` union: all
// generated from the spec, so a schema or callback added there is exported here with no edit.
export type * from './generated/names.js';
/** The legacy answer of the passport extraction, under a shorter name. */
export type { LegacyExtractPassportResponse as PassportExtraction } from './generated/legacy.js';
