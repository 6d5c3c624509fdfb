// One line per request: method, path, operation, status, milliseconds and company name. Never a key:
// the query is left out (nothing of the sandbox's takes a key there, but a client may put one), and a
// path holding a known key or token is redacted. Lines are written in batches, once per turn of the
// event loop, so that logging costs one write per burst rather than one per request.
export type RequestLine = { method: string; path: string; operation?: string; status: number; ms: number; company?: string };

export type RequestLog = (line: RequestLine) => void;

const maxPathLength = 200;

export function formatLine(line: RequestLine, secrets: readonly string[]): string {
  let path = line.path.length > maxPathLength ? `${line.path.slice(0, maxPathLength)}...` : line.path;
  for (const secret of secrets) if (secret && path.includes(secret)) path = path.replaceAll(secret, '[redacted]');
  const company = line.company === undefined ? '-' : JSON.stringify(line.company);
  return `${line.method} ${path} ${line.operation ?? '-'} ${line.status} ${line.ms.toFixed(1)}ms ${company}`;
}

/** A writer that gathers lines and hands them to `write` once per turn of the event loop. */
export function batchedLines(write: (text: string) => void): (text: string) => void {
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join('\n') + '\n';
    pending = [];
    write(text);
  };
  return (text) => {
    if (pending.push(text) === 1) setImmediate(flush);
  };
}
