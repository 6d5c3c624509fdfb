// What the console may show of a body: text with every secret replaced by `[redacted]`, a form's files as
// their name, type and size, and media as a size only. A key is redacted twice over: every known key and
// token wherever it appears, and the value of every field named like a secret (an unknown or mistyped key
// is still somebody's key).
import type { Sandbox } from '@idv-toolkit/types';

export type LoggedBody = Sandbox.SandboxLoggedBody;

/** Bodies are kept up to this many bytes (the spec says 16 KiB). */
export const maxKeptBytes: number = 16 * 1024;

const secretFields = ['companyKey', 'company_key', 'callbackApiKey', 'callback_api_key', 'adminToken', 'password'];
const jsonField = new RegExp(`"(${secretFields.join('|')})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"?`, 'g');
const formField = new RegExp(`(^|&)(${secretFields.join('|')})=[^&]*`, 'g');

/** Replaces known secrets and the values of secret-named fields in a text. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret && out.includes(secret)) out = out.replaceAll(secret, '[redacted]');
  return out.replace(jsonField, '"$1"$2"[redacted]"').replace(formField, '$1$2=[redacted]');
}

const isText = (contentType: string) => /^(text\/|application\/(json|x-www-form-urlencoded|problem\+json|xml))/i.test(contentType);

/** The fields of a multipart body, files shown by name, type and size (a cut-off body gives what it has). */
export function multipartFields(bytes: Buffer, contentType: string): Record<string, string> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const fields: Record<string, string> = {};
  if (!boundary) return fields;
  const text = bytes.toString('latin1');
  for (const part of text.split(`--${boundary[1] ?? boundary[2]}`).slice(1)) {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    const value = part.slice(split + 4).replace(/\r\n$/, '');
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? 'application/octet-stream';
    fields[name] = filename === undefined ? Buffer.from(value, 'latin1').toString('utf8') : `[file "${filename}", ${type}, ${value.length} bytes]`;
  }
  return fields;
}

/** The console's view of a body of `size` bytes of which `bytes` were kept. */
export function describeBody(bytes: Buffer, size: number, contentType: string | undefined, secrets: readonly string[]): LoggedBody {
  const truncated = size > bytes.length;
  if (size === 0) return { contentType: contentType ?? null, size, text: null, truncated: false };
  if (contentType && /^multipart\/form-data/i.test(contentType)) {
    const fields = multipartFields(bytes, contentType);
    for (const name of secretFields) if (name in fields) fields[name] = '[redacted]';
    return { contentType, size, text: redactText(JSON.stringify(fields, null, 2), secrets), truncated };
  }
  if (contentType && !isText(contentType)) return { contentType, size, text: null, truncated: false };
  let text = bytes.toString('utf8');
  if (!truncated && contentType && /json/i.test(contentType)) {
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // not JSON after all: shown as it came
    }
  }
  return { contentType: contentType ?? null, size, text: redactText(text, secrets), truncated };
}
