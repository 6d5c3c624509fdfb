import type { Handlers } from '../context.js';

export const registryHandlers: Handlers = {};
