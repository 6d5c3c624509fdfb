import type { Handlers, TypedHandlers } from '../context.js';
import { attachmentsHandlers } from './attachments.js';
import { biometricsHandlers } from './biometrics.js';
import { blacklistHandlers } from './blacklist.js';
import { consoleHandlers } from './console-handlers.js';
import { controlHandlers } from './control.js';
import { documentImagesHandlers } from './document-images.js';
import { mediaHandlers } from './media.js';
import { registryHandlers } from './registry.js';
import { screeningHandlers } from './screening.js';
import { sessionHandlers } from './sessions.js';
import { usersGroupsHandlers } from './users-groups.js';
import { videoCallsHandlers } from './video-calls.js';

/** Every operation's handler, by operationId, each typed by its operation's request and 200 bodies. */
export const typedHandlers: TypedHandlers = {
  ...sessionHandlers,
  ...controlHandlers,
  ...consoleHandlers,
  ...blacklistHandlers,
  ...usersGroupsHandlers,
  ...screeningHandlers,
  ...mediaHandlers,
  ...videoCallsHandlers,
  ...attachmentsHandlers,
  ...biometricsHandlers,
  ...registryHandlers,
  ...documentImagesHandlers,
};

/**
 * The same, as the server calls them: with any operation's context, whose body the server has checked
 * against that operation's schema before the call, which is what makes the typed view above hold.
 */
export const allHandlers: Handlers = typedHandlers as Handlers;

/**
 * Operations that only read the stores: the server runs them outside the company's transaction (they
 * need no lock, and many can read at once). Any operation not listed runs inside it, so a new handler
 * that writes is safe by default.
 */
/**
 * Operations whose handler makes one store write and nothing after it, that write's checks made in the
 * store itself (a taken key, the caps): the server runs them outside the company's transaction too, and
 * the write takes the company's lock itself. On PostgreSQL such writes of a company's waiting requests
 * go in one round trip, COMMIT included (sql/group-commit.ts `commitAhead`).
 */
export const singleWriteOperations: ReadonlySet<string> = new Set(['addBlacklistRecord']);

export const readOnlyOperations: ReadonlySet<string> = new Set([
  'getResult',
  'legacyGetResult',
  'listSessionActivities',
  'getSessionStatisticalSummary',
  'getSessionConfig',
  'listBlacklistRecords',
  'listUsers',
  'listGroups',
  'getFile',
  'getQuestionFile',
  'getVideoCallShots',
  'getVideoCallVideos',
  'exportSessionAsPdf',
  'getSessionMainDocumentFacePhoto',
  'getVisualMarkers',
  'legacyGetCardFront',
  'legacyGetCardBack',
  'legacyGetPassport',
  'legacyGetFace',
  'legacyGetFaceDocument',
  'legacyGetFaceVideo',
  'legacyGetGeneralDocument',
  'searchScreeningPerson',
  'getScreeningPersonDetails',
  'listScreeningMonitoringRecords',
  'getScreeningDeltaRecords',
  'getTrustedDatabaseRecord',
  'checkInRegistry',
  'compareFaces',
  'checkSpoofing',
  'sandboxListCallbacks',
  'legacyExtractCardFront',
  'legacyExtractCardBack',
  'legacyExtractLicenseFront',
  'legacyExtractLicenseBack',
  'legacyExtractResidenceFront',
  'legacyExtractResidenceBack',
  'legacyExtractPassport',
]);
