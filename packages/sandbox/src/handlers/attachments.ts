import type { Handlers } from '../context.js';

export const attachmentsHandlers: Handlers = {};
