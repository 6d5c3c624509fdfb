import type { Handlers } from '../context.js';

export const biometricsHandlers: Handlers = {};
