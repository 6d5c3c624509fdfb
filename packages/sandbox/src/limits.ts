/**
 * Every limit of the sandbox, with its default. The reference shows none of them: each is the sandbox's
 * choice, listed with its reason in the package README ("Limits"), and each has a test at its edge.
 * `createSandbox({ limits })` overrides any of them (tests use small values).
 */
export type Limits = {
  /** Body of an operation that takes files or data URIs (upload-file, check-spoofing, compare-faces, legacy uploads). */
  maxUploadBodyBytes: number;
  /** Body of every other operation. */
  maxBodyBytes: number;
  /** Nesting of objects and arrays in a JSON body or a JSON form field. */
  maxDepth: number;
  /** Characters in any string of a request, except the file and data-URI fields. */
  maxTextLength: number;
  /** Items in any array of a request. */
  maxArrayItems: number;
  /** Fields in any object of a request. */
  maxObjectKeys: number;
  /** Records of one kind (sessions, blacklist records, users, ...) that one company may hold. */
  maxRecordsPerCompany: number;
  /** Bytes one company may hold across all its records and files (estimated as their JSON or file size). */
  maxBytesPerCompany: number;
  /** Activities kept per session (the oldest after the first are dropped). */
  maxActivitiesPerSession: number;
  /** Callback delivery attempts kept in each company's log (the oldest are dropped). */
  maxCallbackLogEntries: number;
  /** Callback events of one company waiting for delivery; more are given up at once and logged as failed. */
  maxQueuedCallbacks: number;
  /** Connections open at once to one callback receiver (per origin); further deliveries wait their turn. */
  maxConnectionsPerReceiver: number;
  /** Lines of text per section of an exported PDF (a longer section ends with a line saying it was cut). */
  maxPdfLinesPerSection: number;
  /** Characters of one value shown in an exported PDF. */
  maxPdfValueLength: number;
  /** IP addresses the rate limiter remembers; past this, windows that ended are forgotten. */
  maxTrackedAddresses: number;
};

export const defaultLimits: Limits = {
  maxUploadBodyBytes: 16 * 1024 * 1024,
  maxBodyBytes: 1024 * 1024,
  maxDepth: 32,
  maxTextLength: 10_000,
  maxArrayItems: 1_000,
  maxObjectKeys: 1_000,
  maxRecordsPerCompany: 50_000,
  maxBytesPerCompany: 256 * 1024 * 1024,
  maxActivitiesPerSession: 100,
  maxCallbackLogEntries: 1_000,
  maxQueuedCallbacks: 10_000,
  maxConnectionsPerReceiver: 8,
  maxPdfLinesPerSection: 100,
  maxPdfValueLength: 1_000,
  maxTrackedAddresses: 10_000,
};

/**
 * Whether a decoded request value keeps the shape limits: depth, string length (except the top-level
 * fields in `bigFields`), array and object sizes, and only finite numbers (`1e400` parses to Infinity,
 * which JSON cannot give back). Iterative, so a deep value cannot overflow the stack.
 */
export function withinLimits(value: unknown, limits: Limits, bigFields: ReadonlySet<string> = new Set(), startDepth = 0): boolean {
  const stack: [unknown, number, boolean][] = [[value, startDepth, false]];
  while (stack.length) {
    const [item, depth, big] = stack.pop()!;
    if (typeof item === 'string') {
      if (!big && item.length > limits.maxTextLength) return false;
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false;
    } else if (item !== null && typeof item === 'object') {
      if (depth + 1 > limits.maxDepth) return false;
      if (Array.isArray(item)) {
        if (item.length > limits.maxArrayItems) return false;
        for (const child of item) stack.push([child, depth + 1, false]);
      } else {
        const keys = Object.keys(item);
        if (keys.length > limits.maxObjectKeys) return false;
        for (const key of keys) {
          if (key.length > limits.maxTextLength) return false;
          stack.push([(item as Record<string, unknown>)[key], depth + 1, depth === startDepth && startDepth === 0 && bigFields.has(key)]);
        }
      }
    }
  }
  return true;
}
