#!/usr/bin/env node
// `npm run trigger -- <event> --url URL --key KEY [--field value ...]`: sends one callback with a valid
// payload to any receiver, like the Stripe CLI's `trigger`. The payload starts from the event's documented
// example; `--sessionId s1 --result REJECTED` and the like replace its fields (values that read as JSON,
// such as null or 42, are taken as such). The key is never printed.
import { parseCallback, type CallbackType } from '@idv-toolkit/client';
import { webhookTable } from '@idv-toolkit/types';

export function payloadFor(event: string, key: string, overrides: Record<string, string>): Record<string, unknown> {
  const rules = webhookTable[event as CallbackType];
  if (!rules) throw new Error(`Unknown event ${event}. Events: ${Object.keys(webhookTable).join(', ')}`);
  const payload: Record<string, unknown> = { ...(rules.example as Record<string, unknown>), callbackApiKey: key, type: event };
  for (const [field, text] of Object.entries(overrides)) {
    try {
      payload[field] = JSON.parse(text);
    } catch {
      payload[field] = text;
    }
  }
  parseCallback(payload, { callbackApiKey: key });
  return payload;
}

export async function trigger(argv: string[]): Promise<number> {
  const [event, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const name = rest[i]?.replace(/^--/, '');
    if (!name || rest[i + 1] === undefined) throw new Error(`Expected --name value pairs, got ${rest.slice(i).join(' ')}`);
    options[name] = rest[i + 1]!;
  }
  const { url, key, ...fields } = options;
  if (!event || !url || !key) throw new Error('Usage: npm run trigger -- <event> --url URL --key KEY [--field value ...]');
  const payload = payloadFor(event, key, fields);
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(10_000) });
  const shown = { ...payload, callbackApiKey: '[redacted]' };
  console.log(`Sent ${event} to ${url}: HTTP ${response.status}\n${JSON.stringify(shown, null, 2)}`);
  return response.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  trigger(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.message);
      process.exit(2);
    },
  );
}
