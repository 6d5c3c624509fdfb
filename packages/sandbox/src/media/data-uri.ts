// Base64 data URIs, the way the service carries files inside JSON (PDF export, face photo, tar archives,
// uploads). Parsing is strict: a sloppy data URI is the caller's error, answered with a documented code.
export const toDataUri = (contentType: string, bytes: Uint8Array) => `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;

/** Characters of base64 decoded per turn by `decodeAhead` (a multiple of 4: about a ms of work). */
const piece = 1024 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Files of requests in progress, decoded ahead of their handler a piece per turn (`decodeAhead`), by the
 * very string the handler is given: decoding 16 MiB in the handler's turn held every other request for
 * tens of ms. A string as long as these is hashed by its length, so a look-up costs nothing.
 */
const aheadBase64 = new Map<string, Uint8Array | undefined>();
const aheadUris = new Map<string, DataUri | undefined>();
/** Base64 text with line breaks, and the same without them (made ahead too, a piece per turn). */
const aheadJoined = new Map<string, string>();

const lineBreaks = /[\r\n]/g;

/**
 * Base64 text without its line breaks (MIME base64 wraps lines); the very same string when it has none,
 * found by a native search rather than a regular expression over all of it (about 100 ms for 16 MiB).
 */
export function withoutLineBreaks(text: string): string {
  const joined = aheadJoined.get(text);
  if (joined !== undefined) return joined;
  return text.includes('\n') || text.includes('\r') ? text.replace(lineBreaks, '') : text;
}

/** `withoutLineBreaks` a piece per turn. */
async function joinInPieces(text: string): Promise<string> {
  let joined = '';
  let breaks = false;
  for (let at = 0; at < text.length; at += piece) {
    const part = text.slice(at, at + piece);
    const broken = part.includes('\n') || part.includes('\r');
    breaks ||= broken;
    joined += broken ? part.replace(lineBreaks, '') : part;
    await nextTurn();
  }
  return breaks ? joined : text;
}

export type DataUri = { contentType: string; bytes: Uint8Array };

/**
 * Bytes of canonical base64 text, or undefined when it is not base64 (Buffer.from alone would skip junk).
 * Checked by encoding the bytes again, natively: a regular expression over a 16 MiB upload took half a
 * second and could overflow the regexp stack (a 500).
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (aheadBase64.has(text)) return aheadBase64.get(text);
  if (text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

/** `decodeBase64` a piece per turn: each piece but the last must decode whole (no padding inside). */
async function decodeBase64InPieces(text: string): Promise<Uint8Array | undefined> {
  if (text.length % 4 !== 0) return undefined;
  const bytes = new Uint8Array((text.length / 4) * 3);
  const out = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let written = 0;
  for (let at = 0; at < text.length; at += piece) {
    const part = text.slice(at, at + piece);
    const last = at + piece >= text.length;
    const count = out.write(part, written, 'base64');
    if ((!last && count !== (part.length / 4) * 3) || out.toString('base64', written, written + count) !== part) return undefined;
    written += count;
    if (!last) await nextTurn();
  }
  return bytes.subarray(0, written);
}

/** The header of a data URI (`data:<type>;base64,`): its media type and where the data starts. */
function header(uri: string): { contentType: string; data: number } | undefined {
  // Only the short header is matched by a pattern; the data itself is never scanned by one.
  const comma = uri.indexOf(',');
  if (comma < 0 || comma > 200) return undefined;
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64$/i.exec(uri.slice(0, comma));
  return match ? { contentType: match[1]!.toLowerCase(), data: comma + 1 } : undefined;
}

/** `data:<type>;base64,<data>` split into its media type and bytes; undefined for anything else. */
export function parseDataUri(uri: string): DataUri | undefined {
  if (aheadUris.has(uri)) return aheadUris.get(uri);
  const head = header(uri);
  const bytes = head && decodeBase64(uri.slice(head.data));
  return head && bytes ? { contentType: head.contentType, bytes } : undefined;
}

/**
 * Decodes a request's file field (a data URI or base64) a piece per turn, so that the handler's
 * `parseDataUri` or `decodeBase64` of that same string finds it done. Returns what forgets it again: the
 * server calls it once the request is answered.
 */
export async function decodeAhead(value: string): Promise<() => void> {
  const head = value.startsWith('data:') ? header(value) : undefined;
  if (head) {
    const bytes = await decodeBase64InPieces(value.slice(head.data));
    aheadUris.set(value, bytes ? { contentType: head.contentType, bytes } : undefined);
    return () => aheadUris.delete(value);
  }
  // Plain base64 may come in lines: decoded as the handler sees it, once `withoutLineBreaks` has them out.
  const joined = await joinInPieces(value);
  aheadJoined.set(value, joined);
  aheadBase64.set(joined, await decodeBase64InPieces(joined));
  return () => {
    aheadJoined.delete(value);
    aheadBase64.delete(joined);
  };
}
