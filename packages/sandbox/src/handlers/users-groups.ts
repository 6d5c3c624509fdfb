import type { Handlers } from '../context.js';

export const usersGroupsHandlers: Handlers = {};
