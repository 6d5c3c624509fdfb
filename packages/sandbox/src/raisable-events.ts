// The callbacks that raise-event sends and how it fills each, read from the current description's webhooks
// at run time: a callback added to the spec can be raised with no code change. A payload starts from the
// callback's documented example; the session's ID and applicant link, a fresh code and the values the
// request gives replace the example's, and the result is checked against the callback's schema.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { loadDocument } from './spec.js';

const require = createRequire(import.meta.url);

type Document = { webhooks?: Record<string, Record<string, any>>; components?: Record<string, unknown> };

/**
 * Sent by the sandbox itself when what they report happens (complete-session and the like change a
 * session's status, set-video-call-status its call), so never raised on request: a raised one would
 * contradict the session it names.
 */
export const sentOnChange: ReadonlySet<string> = new Set(['session-change', 'video-call-status-update']);

/** One raisable callback: its schema's properties and its documented example. */
export type CallbackRule = { type: string; properties: readonly string[]; example: Record<string, unknown>; validate(payload: unknown): boolean };

function resolve(document: Document, node: any): any {
  while (node?.$ref) node = node.$ref.slice(2).split('/').reduce((at: any, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return node;
}

/** The raisable callbacks of `document` (the bundled current description by default), by type. */
export function callbackRules(document: Document = loadDocument('current') as Document): ReadonlyMap<string, CallbackRule> {
  const rules = new Map<string, CallbackRule>();
  let ajv: Ajv2020 | undefined;
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    const media = resolve(document, item.post?.requestBody)?.content?.['application/json'];
    const schema = resolve(document, media?.schema);
    // The event's name is its `type` constant (the webhook's key names it too).
    const type = typeof schema?.properties?.type?.const === 'string' ? schema.properties.type.const : name;
    if (sentOnChange.has(type) || !schema) continue;
    const example = media.example ?? resolve(document, Object.values<any>(media.examples ?? {})[0])?.value ?? schema.example ?? {};
    let compiled: ValidateFunction | undefined;
    rules.set(type, {
      type,
      properties: Object.keys(schema.properties ?? {}),
      example,
      validate(payload) {
        if (!compiled) {
          if (!ajv) {
            const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
            const addFormats = require('ajv-formats') as typeof import('ajv-formats');
            ajv = new Ajv2020({ strict: false, allErrors: true });
            addFormats.default(ajv);
            ajv.addSchema(document, 'urn:idv:raisable');
          }
          compiled = ajv.compile(media.schema.$ref ? { $ref: `urn:idv:raisable${media.schema.$ref}` } : media.schema);
        }
        return compiled(payload) as boolean;
      },
    });
  }
  return rules;
}

let loaded: ReadonlyMap<string, CallbackRule> | undefined;
/** The rules of the bundled description, read once per process (as the routes are). */
export const raisableCallbacks = (): ReadonlyMap<string, CallbackRule> => (loaded ??= callbackRules());

/** What the sandbox knows of the raise: the session, its applicant link, a fresh code, and the request's values. */
export type Raise = { sessionId: string; sessionLink: string; code: string; given: Record<string, unknown> };

/** `text` with every `from` replaced by `to`, and `rest` applied to the pieces between (`from` not a string: to all of it). */
const swap = (text: string, from: unknown, to: string, rest: (piece: string) => string) =>
  typeof from === 'string' && from !== '' ? text.split(from).map(rest).join(to) : rest(text);

/**
 * The payload of a raised callback: the example, its session link and session ID replaced by the real
 * ones wherever they appear (a text that carries the link carries the real one), a six-digit code in a
 * text replaced by a fresh one, then the request's values for the callback's fields. `callbackApiKey` is
 * set at delivery.
 */
export function payloadOf(rule: CallbackRule, raise: Raise): Record<string, unknown> {
  const { callbackApiKey: _key, ...example } = rule.example;
  const payload: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(example)) {
    if (typeof value !== 'string') payload[field] = structuredClone(value);
    else payload[field] = swap(value, example.sessionLink, raise.sessionLink, (piece) => swap(piece, example.sessionId, raise.sessionId, (text) => text.replace(/\b\d{6}\b/g, raise.code)));
  }
  if (rule.properties.includes('sessionLink')) payload.sessionLink = raise.sessionLink;
  for (const [field, value] of Object.entries(raise.given)) if (rule.properties.includes(field) && value !== undefined) payload[field] = value;
  return { ...payload, type: rule.type, sessionId: raise.sessionId };
}
