import type { Handlers } from '../context.js';

export const blacklistHandlers: Handlers = {};
