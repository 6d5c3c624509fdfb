// Base64 data URIs, the way the service carries files inside JSON (PDF export, face photo, tar archives,
// uploads). Parsing is strict: a sloppy data URI is the caller's error, answered with a documented code.
export const toDataUri = (contentType: string, bytes: Uint8Array) => `data:${contentType};base64,${Buffer.from(bytes).toString('base64')}`;

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes of canonical base64 text, or undefined when it is not base64 (Buffer.from alone would skip junk). */
export function decodeBase64(text: string): Uint8Array | undefined {
  return base64Pattern.test(text) ? new Uint8Array(Buffer.from(text, 'base64')) : undefined;
}

/** `data:<type>;base64,<data>` split into its media type and bytes; undefined for anything else. */
export function parseDataUri(uri: string): { contentType: string; bytes: Uint8Array } | undefined {
  const match = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/is.exec(uri);
  if (!match) return undefined;
  const bytes = decodeBase64(match[2]!);
  return bytes ? { contentType: match[1]!.toLowerCase(), bytes } : undefined;
}
