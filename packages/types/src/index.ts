// Friendly names for the generated types of both interfaces. Everything here is re-exported from
// src/generated/ (made from openapi/ by `npm run generate`); nothing is defined twice.
import type { webhooks } from './generated/current.js';

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

// Resources of the current interface.
export type {
  BlacklistRecord,
  NewBlacklistRecord,
  Group,
  User,
  UserRole,
  ScreeningHit,
  ScreeningSearchQuery,
  ScreeningQuery,
  ScreeningPersonDetails,
  MonitoringRecord,
  DeltaRecord,
  KybSessionResult,
  KybStepResult,
  KybBeneficiary,
  SessionActivity,
  SessionStatisticalSummary,
  SessionConfig,
  VideoCallVideo,
  FaceComparisonResult,
  SpoofCheckResult,
  TrustedDatabaseRecord,
  GeneralOverrides,
  SessionStep,
  SessionFlags,
  StepFlags,
  StepQuestion,
  TechnicalDetails,
  OneTimePasswordRequestEvent,
  ShareSessionLinkViaSmsEvent,
  ShareSessionLinkViaEmailEvent,
  EmailOneTimePasswordRequestEvent,
  SessionChangeEvent,
  VideoCallStatusUpdateEvent,
} from './generated/current.js';

// Resources that the legacy interface returns.
export type {
  KycSessionResult,
  ExtractedDocumentData,
  DocumentPerson,
  GeneralDocument,
  GeneralDocumentPage,
  VideoCallStatusEntry,
  LegacyExtractPassportResponse as PassportExtraction,
} from './generated/legacy.js';

/** The name of each callback the service sends. */
export type CallbackType = keyof webhooks;
/** Any callback payload: a union discriminated by `type`. */
export type CallbackEvent = {
  [Name in CallbackType]: NonNullable<webhooks[Name]['post']>['requestBody'] extends { content: { 'application/json': infer Body } } | undefined
    ? Body
    : never;
}[CallbackType];
