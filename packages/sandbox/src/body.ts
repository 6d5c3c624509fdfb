// Reads a request body within the size limit and parses it as the route expects: JSON, or form data
// (multipart or urlencoded, through busboy). Anything else is bad input, answered with the operation's
// own error code by the caller.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { BigJsonError, BigJsonReader } from './big-json.js';

export class BadInput extends Error {
  constructor(
    message: string,
    /** The body was cut off unread: the connection must close after the answer. */
    readonly unread = false,
  ) {
    super(message);
  }
}

export type UploadedFile = { filename: string; mimeType: string; bytes: Buffer };
export type ParsedBody = { fields: Record<string, unknown>; files: Record<string, UploadedFile> };

const empty = Buffer.alloc(0);

/**
 * The body of a request when all of it is in the stream's buffer: the message is parsed to its end
 * (`complete`), or as many bytes as its content-length said are buffered. The usual case, a body that came
 * with its headers, is parsed within a turn of them, so it is taken with one `read()`: no listeners,
 * promise or flowing mode per request (issue 14's bench: every request of the API has a body).
 * Undefined when the body is still arriving (it is then read as it streams in).
 */
function readWhole(request: IncomingMessage, maxBodyBytes: number, declared: number | undefined): Buffer | undefined {
  // Stryker disable next-line all: readBody and the server's JSON path are a request's first and only reader, so it is never flowing or ended here (a guard for a caller that read it already).
  if (request.readableFlowing === true || request.readableEnded) return undefined;
  const complete = request.complete === true;
  // Stryker disable next-line all: with no content-length, or 0, the comparison below sends the body to the streaming read as well (or takes an empty one whole): the same bytes.
  const unknownOrEmpty = declared === undefined || declared === 0;
  if (!complete && (unknownOrEmpty || request.readableLength !== declared)) return undefined;
  // Everything buffered; null: an empty body.
  const whole = (request.read() as Buffer | null) ?? empty;
  // A body over the limit that was read whole (chunked, no content-length): refused as the streaming read refuses it.
  if (whole.length > maxBodyBytes) throw new BadInput(`body over ${maxBodyBytes} bytes`, true);
  // The message's end is still to be parsed: the stream ends by itself when it is (nothing is left to read).
  if (!complete) request.resume();
  return whole;
}

/**
 * A request header as `request.headers[name]` gives it, for a header of which Node keeps the first
 * occurrence (content-type, content-length), read from the raw pairs: the first read of `headers` builds
 * an object of every header, which nothing on the path of an API request needs (issue 14's bench).
 * `name` is in lower case.
 */
export function firstHeader(request: IncomingMessage, name: 'content-type' | 'content-length'): string | undefined {
  const raw = request.rawHeaders as string[] | undefined;
  // A request made by hand (tests) may give its headers alone.
  // Stryker disable next-line ConditionalExpression: Node's headers object keeps the first content-type and content-length, as the loop below finds them.
  if (raw === undefined) return request.headers[name];
  for (let at = 0; at < raw.length; at += 2) {
    const field = raw[at]!;
    // Stryker disable next-line ConditionalExpression: the length check and the exact match only spare a lower-casing.
    if (field.length === name.length && (field === name || lowerCase(field) === name)) return raw[at + 1];
  }
  return undefined;
}

/** Header names in lower case, each spelling worked out once (a client sends the same few every time). */
const lowered = new Map<string, string>();
function lowerCase(field: string): string {
  let lower = lowered.get(field);
  // Stryker disable next-line ConditionalExpression: the cache changes the work, not the name found.
  if (lower === undefined) {
    lower = field.toLowerCase();
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound keeps the cache's memory (a client can send any spelling), not what a lookup finds.
    if (lowered.size < 100) lowered.set(field, lower);
  }
  return lower;
}

/** The body's content-length, if it gives one; a body declared over the limit is refused before it is read. */
function declaredLength(request: IncomingMessage, maxBodyBytes: number): number | undefined {
  const length = firstHeader(request, 'content-length');
  // Stryker disable next-line ConditionalExpression: Number(undefined) is NaN, which, as undefined, no comparison finds over the limit or equal to a buffered length.
  const declared = length === undefined ? undefined : Number(length);
  // Stryker disable next-line ConditionalExpression: `undefined > maxBodyBytes` is false as well.
  if (declared !== undefined && declared > maxBodyBytes) throw new BadInput(`body over ${maxBodyBytes} bytes`, true);
  return declared;
}

// Stryker disable next-line BlockStatement: its one caller discards the body (a form of the wrong type), and Node drains a body left unread once the answer is written.
async function readAll(request: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  const declared = declaredLength(request, maxBodyBytes);
  // One turn: the parser hands on the body that came in the same packet as the headers.
  await undefined;
  // Stryker disable next-line LogicalOperator: as above, the body read here is discarded.
  return readWhole(request, maxBodyBytes, declared) ?? (await readStreaming(request, maxBodyBytes));
}

function readStreaming(request: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        // Stryker disable next-line StringLiteral: a listener left behind only refuses again, on a promise already refused.
        request.removeAllListeners('data');
        request.pause();
        reject(new BadInput(`body over ${maxBodyBytes} bytes`, true));
      } else chunks.push(chunk);
    });
    // Stryker disable next-line ConditionalExpression: Buffer.concat of one chunk gives the same bytes, copied.
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    // A client that goes away mid-body is bad input, not a fault of the sandbox.
    request.on('error', () => reject(new BadInput('the request was aborted', true)));
  });
}

/** How an upload's JSON body is read: files set aside as they arrive, the fields around them bounded. */
export type UploadReading = {
  /** Top-level fields that carry files (spec.ts `bigFields`). */
  bigFields: ReadonlySet<string>;
  /** Strings longer than this are set aside (over the text limit, so only a file may be one). */
  bigString: number;
  /** Bytes the body may take besides its files. */
  maxSkeletonBytes: number;
};

/** An upload's JSON body, read in pieces (big-json.ts): no turn of the event loop decodes or parses all of it. */
function readJsonUpload(request: IncomingMessage, maxBodyBytes: number, reading: UploadReading): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > maxBodyBytes) return reject(new BadInput(`body over ${maxBodyBytes} bytes`, true));
    const reader = new BigJsonReader(reading.bigString, reading.maxSkeletonBytes);
    let size = 0;
    const stop = (error: BadInput) => {
      // Stryker disable next-line StringLiteral: a listener left behind only stops again, on a promise already refused.
      request.removeAllListeners('data');
      request.pause();
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) return stop(new BadInput(`body over ${maxBodyBytes} bytes`, true));
      try {
        reader.write(chunk);
      } catch (error) {
        if (!(error instanceof BigJsonError)) throw error;
        stop(new BadInput(error.message, true));
      }
    });
    request.on('end', () => reader.end(reading.bigFields).then(resolve, () => reject(new BadInput('malformed JSON'))));
    request.on('error', () => reject(new BadInput('the request was aborted', true)));
  });
}

function readForm(request: IncomingMessage, maxBodyBytes: number): Promise<ParsedBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: { fileSize: maxBodyBytes, fieldSize: maxBodyBytes, fields: 100, files: 10 } });
    } catch (error) {
      return reject(new BadInput(`malformed form: ${(error as Error).message}`));
    }
    const body: ParsedBody = { fields: {}, files: {} };
    let total = 0;
    const tooLarge = () => reject(new BadInput(`body over ${maxBodyBytes} bytes`, true));
    parser.on('field', (name, value) => {
      total += value.length;
      // Stryker disable next-line ConditionalExpression: the parser's close refuses the same form (over the limit) with the same reason.
      if (total > maxBodyBytes) tooLarge();
      body.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', tooLarge);
      stream.on('end', () => {
        body.files[name] = { filename: info.filename, mimeType: info.mimeType, bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('error', (error) => reject(new BadInput(`malformed form: ${(error as Error).message}`)));
    request.on('error', () => reject(new BadInput('the request was aborted', true)));
    parser.on('close', () => (total > maxBodyBytes ? tooLarge() : resolve(body)));
    request.pipe(parser);
  });
}

/** The request's content type as the sandbox compares it: the usual header as it is; any other cut at its parameters, in lower case. */
function contentTypeOf(request: IncomingMessage): string {
  const header = firstHeader(request, 'content-type');
  // Stryker disable next-line ConditionalExpression,StringLiteral: the usual header's shortcut gives what the general path gives.
  return header === 'application/json' ? header : (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** A body's fields, once it has been read: refused unless the content type is JSON and the text a JSON object. */
function jsonObjectOf(raw: Buffer, type: string): Record<string, unknown> {
  if (type !== 'application/json' && !type.endsWith('+json')) throw new BadInput(`expected application/json, got ${type || 'no content type'}`);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadInput('malformed JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadInput('the body is not a JSON object');
  return value as Record<string, unknown>;
}

/**
 * A JSON body (not an upload's) in two steps, for the server's path that every API request takes
 * (issue 14's bench): `jsonBodyDeclared` as the request arrives (a body declared over the limit is refused
 * unread), then, a turn later (the parser hands on the body that came in the same packet as the headers),
 * `jsonBodyRead`: the fields at once when the whole body is buffered, or a promise of them while it
 * arrives. The caller's turn between them spares an async function and its promise per request. Read
 * together, they are `readBody(request, 'json', maxBodyBytes)`.
 */
export function jsonBodyDeclared(request: IncomingMessage, maxBodyBytes: number): number | undefined {
  return declaredLength(request, maxBodyBytes);
}

/** The second step of `jsonBodyDeclared`: the body's fields, or a promise of them; throws (or rejects with) BadInput. */
export function jsonBodyRead(request: IncomingMessage, maxBodyBytes: number, declared: number | undefined): Record<string, unknown> | Promise<Record<string, unknown>> {
  const raw = readWhole(request, maxBodyBytes, declared);
  const type = contentTypeOf(request);
  return raw === undefined ? readStreaming(request, maxBodyBytes).then((streamed) => jsonObjectOf(streamed, type)) : jsonObjectOf(raw, type);
}

/** A form's fields and files, or a JSON body's fields (no files: one shared empty set, never written to). */
const noFiles: Record<string, UploadedFile> = Object.freeze({}) as Record<string, UploadedFile>;

/**
 * Reads at most `maxBodyBytes` (limits.ts); a larger body is refused and left unread. An upload's JSON body
 * is read as `upload` says.
 */
export async function readBody(request: IncomingMessage, kind: 'json' | 'multipart', maxBodyBytes: number, upload?: UploadReading): Promise<ParsedBody> {
  const type = contentTypeOf(request);
  if (kind === 'multipart') {
    if (type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded') {
      await readAll(request, maxBodyBytes).catch(() => undefined);
      throw new BadInput(`expected form data, got ${type || 'no content type'}`);
    }
    return readForm(request, maxBodyBytes);
  }
  const isJson = type === 'application/json' || type.endsWith('+json');
  if (upload && isJson) {
    const value = await readJsonUpload(request, maxBodyBytes, upload);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadInput('the body is not a JSON object');
    return { fields: value as Record<string, unknown>, files: noFiles };
  }
  const declared = jsonBodyDeclared(request, maxBodyBytes);
  await undefined;
  return { fields: await jsonBodyRead(request, maxBodyBytes, declared), files: noFiles };
}
