/** Where a company key goes: `companyKey` in the current interface, `company_key` in the legacy one. */
export type KeyField = 'companyKey' | 'company_key';

const fileSignatures: [number[], string][] = [
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
];

/** The media type of raw bytes, from their magic number; octet-stream when unknown. */
export function sniffMediaType(bytes: Uint8Array): string {
  const match = fileSignatures.find(([signature]) => signature.every((byte, i) => bytes[i] === byte));
  return match ? match[1] : 'application/octet-stream';
}

/** The parameters as JSON with the key as their last member (it wins over one the caller put there). */
export function jsonBody(params: object | undefined, keyField: KeyField, companyKey: string): string {
  if (params && keyField in params) return JSON.stringify({ ...params, [keyField]: companyKey });
  // Spliced into the parameters' JSON rather than copied into them: on Node 20 a spread copy that gains
  // a property costs about 2.5 µs, a tenth of what the client adds to a local call.
  const json = JSON.stringify(params ?? {});
  return `${json.length > 2 ? `${json.slice(0, -1)},` : '{'}"${keyField}":${JSON.stringify(companyKey)}}`;
}

/**
 * Multipart form data as the legacy interface and compare-faces expect: files as file parts (a Blob
 * as it is, raw bytes with the media type their magic number tells), objects and arrays as JSON text,
 * everything else as its string form.
 */
export function multipartBody(params: object | undefined, keyField: KeyField, companyKey: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...params, [keyField]: companyKey }) as [string, unknown][]) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(name, value, name);
    else if (value instanceof Uint8Array) form.append(name, new Blob([value as Uint8Array<ArrayBuffer>], { type: sniffMediaType(value) }), name);
    else if (typeof value === 'object') form.append(name, JSON.stringify(value));
    else form.append(name, String(value));
  }
  return form;
}
