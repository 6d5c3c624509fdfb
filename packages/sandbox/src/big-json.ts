// A JSON body of an upload (up to 16 MiB, almost all of it one file as base64 text) read without a long
// turn of the event loop: decoding the whole body to text and `JSON.parse` of it took tens of ms in one
// go. As the body arrives, every string longer than `bigString` is set aside as its raw bytes and a
// placeholder takes its place; what is left (the skeleton: the fields around the file) is small and is
// parsed at once. Then each set-aside string that is the value of a top-level big field (a file) is
// decoded a piece at a time, with a turn for other requests between pieces. Any other long string would
// break the text limit (limits.ts) anyway: it is refused as it is, without decoding it.
import { randomBytes } from 'node:crypto';

const quote = 0x22;
const backslash = 0x5c;
/** Bytes of a set-aside string decoded per turn (a few ms at most). */
const piece = 512 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class BigJsonError extends Error {}

/**
 * Collects a JSON body chunk by chunk. `write` costs a search for quotes per chunk (native `indexOf`);
 * nothing is decoded or parsed before `end`.
 */
export class BigJsonReader {
  /** Bytes outside the set-aside strings, in order. */
  private skeleton: Buffer[] = [];
  private skeletonBytes = 0;
  /** The raw bytes (without quotes) of each set-aside string. */
  private big: Buffer[][] = [];
  private inString = false;
  /** The current string's bytes so far (while it may still turn out short) and their count. */
  private current: Buffer[] = [];
  private currentBytes = 0;
  /** Backslashes just before the end of the previous chunk, inside the current string. */
  private backslashes = 0;
  private readonly token = `\u0000big-${randomBytes(12).toString('hex')}-`;

  constructor(
    /** Strings longer than this (in bytes) are set aside; must be over the text limit. */
    private readonly bigString: number,
    /** Bytes the skeleton may take: a body is files plus a few fields. */
    private readonly maxSkeletonBytes: number,
  ) {}

  write(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (!this.inString) {
        const open = chunk.indexOf(quote, at);
        const end = open < 0 ? chunk.length : open + 1;
        this.keep(chunk.subarray(at, end));
        if (open < 0) return;
        this.inString = true;
        this.current = [];
        this.currentBytes = 0;
        this.backslashes = 0;
        at = end;
        continue;
      }
      let close = chunk.indexOf(quote, at);
      while (close >= 0 && this.escaped(chunk, at, close)) close = chunk.indexOf(quote, close + 1);
      if (close < 0) {
        this.take(chunk.subarray(at));
        this.backslashes = trailingBackslashes(chunk, at, chunk.length, this.backslashes);
        return;
      }
      this.take(chunk.subarray(at, close));
      this.closeString();
      at = close + 1;
    }
  }

  /** Whether the quote at `close` is escaped: an odd run of backslashes before it (across chunks too). */
  private escaped(chunk: Buffer, from: number, close: number): boolean {
    return trailingBackslashes(chunk, from, close, this.backslashes) % 2 === 1;
  }

  private keep(bytes: Buffer) {
    if (!bytes.length) return;
    this.skeletonBytes += bytes.length;
    if (this.skeletonBytes > this.maxSkeletonBytes) throw new BigJsonError(`the fields around the files take over ${this.maxSkeletonBytes} bytes`);
    this.skeleton.push(bytes);
  }

  private take(bytes: Buffer) {
    if (!bytes.length) return;
    this.current.push(bytes);
    this.currentBytes += bytes.length;
  }

  private closeString() {
    this.inString = false;
    if (this.currentBytes <= this.bigString) {
      for (const bytes of this.current) this.keep(bytes);
      this.keep(Buffer.from('"'));
    } else {
      // The placeholder replaces the string's content; the opening quote is in the skeleton already.
      this.keep(Buffer.from(`${JSON.stringify(this.token + this.big.length).slice(1, -1)}"`));
      this.big.push(this.current);
    }
    this.current = [];
    this.currentBytes = 0;
  }

  /**
   * The body's value: an object whose top-level `bigFields` may hold the set-aside strings. A set-aside
   * string anywhere else (a key, a nested value, another field) is over the text limit: BigJsonError.
   */
  async end(bigFields: ReadonlySet<string>): Promise<unknown> {
    // An unclosed string is in no skeleton: JSON.parse below sees the body as cut short.
    if (this.inString) for (const bytes of this.current) this.keep(bytes);
    const value: unknown = JSON.parse(Buffer.concat(this.skeleton).toString('utf8'));
    if (!this.big.length) return value;
    const fields = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
    const wanted = new Map<string, number>();
    for (const [name, field] of Object.entries(fields ?? {})) {
      if (bigFields.has(name) && typeof field === 'string' && field.startsWith(this.token)) wanted.set(name, Number(field.slice(this.token.length)));
    }
    if (this.holdsPlaceholder(value, wanted)) throw new BigJsonError('a string over the text limit');
    for (const [name, index] of wanted) fields![name] = await decodeString(this.big[index]!);
    return value;
  }

  /** Whether a placeholder is anywhere but the top-level values in `wanted` (iterative: depth is not checked yet). */
  private holdsPlaceholder(value: unknown, wanted: Map<string, number>): boolean {
    const stack: [unknown, boolean][] = [[value, true]];
    while (stack.length) {
      const [item, top] = stack.pop()!;
      if (typeof item === 'string') {
        if (item.startsWith(this.token)) return true;
      } else if (item !== null && typeof item === 'object') {
        for (const [key, child] of Object.entries(item)) {
          if (key.startsWith(this.token)) return true;
          if (!(top && wanted.has(key))) stack.push([child, false]);
        }
      }
    }
    return false;
  }
}

/** Backslashes that end `chunk[from, to)`; `before` carries a run that started before `from`. */
function trailingBackslashes(chunk: Buffer, from: number, to: number, before: number): number {
  let run = 0;
  while (to - run - 1 >= from && chunk[to - run - 1] === backslash) run++;
  return run === to - from ? before + run : run;
}

/**
 * A JSON string's raw bytes as its value, a piece per turn: UTF-8 decoded in stream mode (a character may
 * span pieces), escapes undone by JSON.parse of each piece (an escape cut at a piece's end is carried to
 * the next). Malformed text throws as JSON.parse of the whole body would.
 */
async function decodeString(parts: Buffer[]): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let value = '';
  let carry = '';
  let since = 0;
  for (const part of parts) {
    for (let at = 0; at < part.length; at += piece) {
      const text = carry + decoder.decode(part.subarray(at, at + piece), { stream: true });
      const cut = completeEscapes(text);
      value += JSON.parse(`"${text.slice(0, cut)}"`);
      carry = text.slice(cut);
      since += Math.min(piece, part.length - at);
      if (since >= piece) {
        since = 0;
        await nextTurn();
      }
    }
  }
  const rest = carry + decoder.decode();
  if (rest) value += JSON.parse(`"${rest}"`);
  return value;
}

/** Where `text` stops holding only complete escapes: before a backslash whose escape runs past its end. */
function completeEscapes(text: string): number {
  for (let i = text.length - 1; i >= Math.max(0, text.length - 6); i--) {
    if (text.charCodeAt(i) !== backslash) continue;
    let run = 1;
    while (i - run >= 0 && text.charCodeAt(i - run) === backslash) run++;
    // Backslashes pair up from the left: with an odd run, the last one starts an escape.
    if (run % 2 === 0) return text.length;
    const needed = text.charCodeAt(i + 1) === 0x75 ? 6 : 2; // \uXXXX or \x
    return text.length - i < needed ? i : text.length;
  }
  return text.length;
}
