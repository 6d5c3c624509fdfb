import type { Handlers } from '../context.js';
import { attachmentsHandlers } from './attachments.js';
import { biometricsHandlers } from './biometrics.js';
import { blacklistHandlers } from './blacklist.js';
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
