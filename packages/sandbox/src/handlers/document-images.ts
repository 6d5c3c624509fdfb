import type { Handlers } from '../context.js';

export const documentImagesHandlers: Handlers = {};
