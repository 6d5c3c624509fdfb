import type { Handlers } from '../context.js';

export const videoCallsHandlers: Handlers = {};
