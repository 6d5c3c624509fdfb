#!/usr/bin/env node
// `npm run trigger -- <event> --url URL --key KEY [--field value ...]`: sends one callback with a valid
// payload to any receiver, like the Stripe CLI's `trigger`. The payload starts from the event's documented
// example; `--sessionId s1 --result REJECTED` and the like replace its fields (values that read as JSON,
// such as null or 42, are taken as such). The key is never printed.
import { parseCallback, type CallbackType } from '@idv-toolkit/client';
import { webhookTable } from '@idv-toolkit/types';
import { Argument, InvalidArgumentError, Option } from 'commander';
import { command, exitWithUsage, parseOptions, UsageError } from './cli-program.js';
import { didYouMean } from './nearest.js';

const events = Object.keys(webhookTable) as CallbackType[];
// Set by the command itself: `type` is the event, `callbackApiKey` is --key.
const fixedFields = new Set(['type', 'callbackApiKey']);

const httpUrl = (text: string): string => {
  try {
    if (['http:', 'https:'].includes(new URL(text).protocol)) return text;
  } catch {
    // not a URL at all: said below
  }
  throw new InvalidArgumentError('It must be an http:// or https:// URL.');
};

const program = command('npm run trigger --', 'Sends one callback with a valid payload to a receiver; the key is never printed.')
  .usage('<event> --url <url> --key <key> [--<field> <value> ...]')
  .addArgument(new Argument('<event>', 'the callback to send').choices(events))
  .addHelpText(
    'after',
    '\nAny other --<field> <value> replaces that field of the event\'s documented example; a value that reads as\n' +
      'JSON (null, 42, true) is taken as such.\n\nExample:\n  npm run trigger -- session-change --url http://127.0.0.1:3000/callbacks --key cb_test_0000 --result REJECTED',
  );

// Every flag, one entry each with its help text.
const flags = [
  new Option('--url <url>', 'where the receiver listens').makeOptionMandatory().argParser(httpUrl),
  new Option('--key <key>', 'the callbackApiKey the receiver expects').makeOptionMandatory(),
];
for (const flag of flags) program.addOption(flag);

export function payloadFor(event: string, key: string, overrides: Record<string, string>): Record<string, unknown> {
  const rules = webhookTable[event as CallbackType];
  if (!rules) throw new Error(`Unknown event ${event}. Events: ${events.join(', ')}`);
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

type Request = { event: CallbackType; url: string; key: string; fields: Record<string, string> };

/** The event, flags and fields of a command line; undefined for --help; a UsageError for a mistake. */
export function parseTriggerArgs(argv: string[]): Request | undefined {
  const rest: string[] = [];
  const given: [string, string | undefined][] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') ? [arg.slice(2).split('=')[0]!, arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined] : [];
    if (name === undefined || ['url', 'key', 'help'].includes(name)) rest.push(arg);
    else given.push([name, inline ?? argv[++i]]);
  }
  const options = parseOptions<{ url: string; key: string }>(program, rest);
  if (!options) return undefined;
  const event = program.processedArgs[0] as CallbackType;
  const known = Object.keys(webhookTable[event].fields).filter((field) => !fixedFields.has(field));
  const fields: Record<string, string> = {};
  for (const [name, value] of given) {
    if (!known.includes(name)) {
      const flagOrField = didYouMean(name, [...known, 'url', 'key']);
      throw new UsageError(`error: --${name} is not a flag or a field of ${event}${flagOrField ? flagOrField.replace('did you mean ', 'did you mean --') : ` (fields: ${known.join(', ')})`}`);
    }
    if (value === undefined) throw new UsageError(`error: --${name} needs a value`);
    fields[name] = value;
  }
  return { event, url: options.url, key: options.key, fields };
}

export async function trigger(argv: string[]): Promise<number> {
  const request = parseTriggerArgs(argv);
  if (!request) return 0;
  const { event, url, key, fields } = request;
  let payload;
  try {
    payload = payloadFor(event, key, fields);
  } catch (error) {
    throw new UsageError(`error: ${(error as Error).message}`);
  }
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload), signal: AbortSignal.timeout(10_000) });
  const shown = { ...payload, callbackApiKey: '[redacted]' };
  console.log(`Sent ${event} to ${url}: HTTP ${response.status}\n${JSON.stringify(shown, null, 2)}`);
  return response.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  trigger(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      if (error instanceof UsageError) exitWithUsage(program, error.message);
      // The receiver could not be reached: one line, why (the cause of fetch's "fetch failed").
      const cause = (error.cause as Error | undefined)?.message;
      console.error(`Could not send the callback: ${cause ?? error.message}`);
      process.exit(1);
    },
  );
}
