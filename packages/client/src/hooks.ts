/** What `onRequest` sees of an attempt about to be sent (never the body, so never the company key). */
export type RequestInfo = {
  operation: string;
  requestId: string;
  /** 1 for the first attempt. */
  attempt: number;
  method: string;
  url: string;
  /** The headers to be sent; a hook may add its own (tracing, say). */
  headers: Record<string, string>;
};

/** What `onResponse` sees of an attempt that ended: its answer (body not yet read), or why there was none. */
export type ResponseInfo = {
  operation: string;
  requestId: string;
  attempt: number;
  /** From sending to the answer's headers. */
  durationMs: number;
  response?: Response;
  /** Set when there was no answer (network failure, timeout, abort). */
  error?: unknown;
};

export type RequestHook = (info: RequestInfo) => void;
export type ResponseHook = (info: ResponseInfo) => void;
