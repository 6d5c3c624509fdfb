// Base64 data URIs, the way the service carries files inside JSON (PDF export, face photo, tar archives,
// uploads). Parsing is strict: a sloppy data URI is the caller's error, answered with a documented code.
export const toDataUri = (contentType: string, bytes: Uint8Array) => `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;

/**
 * Bytes of canonical base64 text, or undefined when it is not base64 (Buffer.from alone would skip junk).
 * Checked by encoding the bytes again, natively: a regular expression over a 16 MiB upload took half a
 * second and could overflow the regexp stack (a 500).
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

/** `data:<type>;base64,<data>` split into its media type and bytes; undefined for anything else. */
export function parseDataUri(uri: string): { contentType: string; bytes: Uint8Array } | undefined {
  // Only the short header is matched by a pattern; the data itself is never scanned by one.
  const comma = uri.indexOf(',');
  if (comma < 0 || comma > 200) return undefined;
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64$/i.exec(uri.slice(0, comma));
  if (!match) return undefined;
  const bytes = decodeBase64(uri.slice(comma + 1));
  return bytes ? { contentType: match[1]!.toLowerCase(), bytes } : undefined;
}
