import type { Handlers } from '../context.js';

export const mediaHandlers: Handlers = {};
