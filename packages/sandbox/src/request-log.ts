// One line per request: method, path, operation, status, milliseconds and company name. Never a key:
// the query is left out (nothing of the sandbox's takes a key there, but a client may put one), and a
// path holding a known key or token is redacted. Lines are written in batches (`batchedLines`), so that
// logging costs one write per burst rather than one per request.
export type RequestLine = { method: string; path: string; operation?: string; status: number; ms: number; company?: string };

export type RequestLog = (line: RequestLine) => void;

const maxPathLength = 200;

export function formatLine(line: RequestLine, secrets: readonly string[]): string {
  let path = line.path.length > maxPathLength ? `${line.path.slice(0, maxPathLength)}...` : line.path;
  for (const secret of secrets) if (secret && path.includes(secret)) path = path.replaceAll(secret, '[redacted]');
  const company = line.company === undefined ? '-' : JSON.stringify(line.company);
  return `${line.method} ${path} ${line.operation ?? '-'} ${line.status} ${line.ms.toFixed(1)}ms ${company}`;
}

/** Lines wait until this many characters are pending, or this long after the first of them. */
const flushCharacters = 64 * 1024;
const flushMs = 50;

/**
 * A writer that gathers lines and hands them to `write` in one piece when 64 KiB are pending or 50 ms after
 * the first: under load, a write per turn of the event loop cost a system call every few requests (a pipe
 * is written synchronously). What is pending is written when the process exits.
 */
export function batchedLines(write: (text: string) => void): (text: string) => void {
  let pending: string[] = [];
  let characters = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return;
    const text = pending.join('\n') + '\n';
    pending = [];
    characters = 0;
    write(text);
  };
  process.once('exit', flush);
  return (text) => {
    pending.push(text);
    characters += text.length;
    if (characters >= flushCharacters) flush();
    else timer ??= setTimeout(flush, flushMs).unref();
  };
}
