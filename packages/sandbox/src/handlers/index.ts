import type { Handlers } from '../context.js';
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

/** Every operation's handler, by operationId. */
export const allHandlers: Handlers = {
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
 * Operations that only read the stores: the server runs them outside the company's transaction (they
 * need no lock, and many can read at once). Any operation not listed runs inside it, so a new handler
 * that writes is safe by default.
 */
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
