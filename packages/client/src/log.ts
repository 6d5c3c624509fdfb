/** Where log lines go; `console` fits. */
export type Logger = {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
};

export type LogLevel = 'debug' | 'info' | 'warn' | 'off';

const levels: readonly LogLevel[] = ['debug', 'info', 'warn', 'off'];

/** Writes the lines at or above a level; `undefined` when nothing would be written, so the hot path can skip it. */
export type Log = (level: Exclude<LogLevel, 'off'>, requestId: string, message: string) => void;

/** The level from the option, else from `IDV_LOG` (read once, when the client is made). */
export function createLog(logger: Logger | undefined, level: LogLevel | undefined): Log | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.IDV_LOG;
  const chosen = level ?? (levels.includes(env as LogLevel) ? (env as LogLevel) : 'off');
  if (chosen === 'off') return undefined;
  const out = logger ?? console;
  // Every line names the call by its request id; no line holds a body, a header value or the key.
  return (lineLevel, requestId, message) => {
    if (levels.indexOf(lineLevel) >= levels.indexOf(chosen)) out[lineLevel](`[idv] ${requestId} ${message}`);
  };
}
