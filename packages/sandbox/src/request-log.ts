// One line per request: method, path, operation, status, milliseconds and company name. Never a key:
// the query is left out (nothing of the sandbox's takes a key there, but a client may put one), and a
// path holding a known key or token is redacted. Lines are written in batches (`batchedLines`), so that
// logging costs one write per burst rather than one per request.
export type RequestLine = { method: string; path: string; operation?: string; status: number; ms: number; company?: string };

export type RequestLog = (line: RequestLine) => void;

const maxPathLength = 200;

export function formatLine(line: RequestLine, secrets: readonly string[]): string {
  const company = line.company === undefined ? '-' : quoted(line.company);
  return `${line.method} ${shownPath(line.path, secrets)} ${line.operation ?? '-'} ${line.status} ${oneDecimal(line.ms)}ms ${company}`;
}

/** A line's path: cut at `maxPathLength`, and any secret in it redacted. */
function shownPath(path: string, secrets: readonly string[]): string {
  let shown = path.length > maxPathLength ? `${path.slice(0, maxPathLength)}...` : path;
  for (const secret of secrets) if (secret && shown.includes(secret)) shown = shown.replaceAll(secret, '[redacted]');
  return shown;
}

/** A writer of lines that also takes a request's line as its parts (`request`), formatted by `formatLine`. */
export type LineWriter = ((text: string) => void) & { request(line: RequestLine, secrets: readonly string[]): void };

/**
 * Company names as JSON strings, each written once: the names come from the configuration, few and
 * repeated on every line (issue 14's bench: a line per request). Bounded, in case a name is ever not.
 */
const quotedNames = new Map<string, string>();
function quoted(name: string): string {
  let text = quotedNames.get(name);
  if (text === undefined) {
    text = JSON.stringify(name);
    if (quotedNames.size < 100) quotedNames.set(name, text);
  }
  return text;
}

/**
 * `ms.toFixed(1)`, without its exact decimal conversion where none is needed: a duration rounded to
 * tenths by `Math.round` is the same unless ms * 10 lies so near a half that the product's rounding could
 * tip it; those, and anything not a plain duration, go through `toFixed` (issue 14's bench: a fifth of a line).
 */
export function oneDecimal(ms: number): string {
  const tenths = ms * 10;
  const rounded = Math.round(tenths);
  if (!(ms >= 0 && ms < 1e9) || Math.abs(Math.abs(tenths - rounded) - 0.5) < 1e-6) return ms.toFixed(1);
  return `${(rounded - (rounded % 10)) / 10}.${rounded % 10}`;
}

/** Lines wait until this many characters are pending, or this long after the first of them. */
const flushCharacters = 64 * 1024;
const flushMs = 50;
/** Bytes the pending lines take at most before they are written (64 Ki characters of UTF-8, and a line). */
const batchBytes = 4 * flushCharacters;

/**
 * A writer that gathers lines and hands them to `write` in one piece when 64 KiB are pending or 50 ms after
 * the first: under load, a write per turn of the event loop cost a system call every few requests (a pipe
 * is written synchronously). What is pending is written when the process exits.
 *
 * The lines wait as bytes, copied into one buffer as they come: a line kept as a string for up to 50 ms
 * (thousands of them under load) outlived a young-generation collection or two and was copied by each,
 * string by string (issue 14's bench); copied at once, it is garbage before the next collection.
 */
export function batchedLines(write: (text: string) => void): LineWriter {
  let pending = Buffer.allocUnsafeSlow(batchBytes);
  let used = 0;
  let characters = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!used) return;
    const text = pending.toString('utf8', 0, used);
    used = 0;
    characters = 0;
    write(text);
  };
  process.once('exit', flush);
  const line = (text: string) => {
    // A UTF-8 character takes at most 3 bytes per UTF-16 unit: make room for the worst case.
    const most = text.length * 3 + 1;
    if (used + most > pending.length) {
      flush();
      if (most > pending.length) pending = Buffer.allocUnsafeSlow(most);
    }
    used += pending.write(text, used);
    pending[used++] = 10;
    characters += text.length;
    if (characters >= flushCharacters) flush();
    else timer ??= setTimeout(flush, flushMs).unref();
  };
  /** A request's line from its parts, as `formatLine` writes it. */
  const request = (parts: RequestLine, secrets: readonly string[]) => line(formatLine(parts, secrets));
  return Object.assign(line, { request });
}
