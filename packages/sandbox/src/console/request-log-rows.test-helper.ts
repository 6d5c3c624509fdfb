// A request as the request log takes it (request-ring.ts `Raw`), for the request-log-sql*.test.ts files:
// a begin answered 200, its request body `{ n }` (or `body`), its answer `{}` (or `answer`), any field changed.
import type { Raw } from './request-ring.js';

export function rawRequest(n: number, changes: Partial<Raw> & { body?: object; answer?: object } = {}): Raw {
  const { body, answer, ...rest } = changes;
  const request = Buffer.from(JSON.stringify(body ?? { n }));
  const response = Buffer.from(JSON.stringify(answer ?? {}));
  return {
    time: '2026-01-01T00:00:00.000Z',
    method: 'POST',
    path: '/begin',
    operation: 'begin',
    status: 200,
    durationMs: 1,
    sourceIp: '127.0.0.1',
    query: '',
    requestType: 'application/json',
    requestBytes: request,
    requestSize: request.length,
    responseType: 'application/json',
    responseBytes: response,
    responseSize: response.length,
    ...rest,
  };
}
