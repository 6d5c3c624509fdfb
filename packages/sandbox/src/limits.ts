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
 * which JSON cannot give back). Iterative, so a deep value cannot overflow the stack. Strings and numbers
 * are checked where they are met; only objects and arrays wait on the stack (with their depth beside
 * them), so that a value allocates nothing per field (every request of the API passes here).
 */
export function withinLimits(value: unknown, limits: Limits, bigFields: ReadonlySet<string> = noBigFields, startDepth = 0): boolean {
  if (!scalarWithin(value, limits, false)) return false;
  if (value === null || typeof value !== 'object') return true;
  const pending: object[] = [value];
  const depths: number[] = [startDepth];
  while (pending.length) {
    const item = pending.pop()!;
    const depth = depths.pop()!;
    if (depth + 1 > limits.maxDepth) return false;
    if (Array.isArray(item)) {
      if (item.length > limits.maxArrayItems) return false;
      for (const child of item) {
        if (!scalarWithin(child, limits, false)) return false;
        if (child !== null && typeof child === 'object') pending.push(child), depths.push(depth + 1);
      }
    } else {
      let keys = 0;
      const top = depth === startDepth && startDepth === 0;
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        if (++keys > limits.maxObjectKeys || key.length > limits.maxTextLength) return false;
        const child = (item as Record<string, unknown>)[key];
        if (!scalarWithin(child, limits, top && bigFields.has(key))) return false;
        if (child !== null && typeof child === 'object') pending.push(child), depths.push(depth + 1);
      }
    }
  }
  return true;
}

const noBigFields: ReadonlySet<string> = new Set();

/** A string within the text limit (unless `big`) or a finite number; true for anything else (checked on the stack). */
function scalarWithin(value: unknown, limits: Limits, big: boolean): boolean {
  if (typeof value === 'string') return big || value.length <= limits.maxTextLength;
  if (typeof value === 'number') return Number.isFinite(value);
  return true;
}
