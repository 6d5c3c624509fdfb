import type { Handlers } from '../context.js';

export const screeningHandlers: Handlers = {};
