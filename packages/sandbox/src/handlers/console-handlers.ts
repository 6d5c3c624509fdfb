import type { Handlers } from '../context.js';
import { consoleCallbackHandlers } from './console-callbacks.js';
import { consoleRateLimitHandlers } from './console-rate-limit.js';
import { consoleRequestHandlers } from './console-requests.js';
import { consoleSessionHandlers } from './console-sessions.js';

/** The handlers of the control operations the console is built on. */
export const consoleHandlers: Handlers = { ...consoleRequestHandlers, ...consoleSessionHandlers, ...consoleCallbackHandlers, ...consoleRateLimitHandlers };
