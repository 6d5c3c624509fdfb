// The friendly named exports of the package (`BlacklistRecord`, `SessionChangeEvent`, the `CallbackEvent`
// union), generated from the descriptions so that a schema or a callback added to the spec is exported
// with no hand edit: src/index.ts re-exports the file this writes.

/** The descriptions whose schemas are exported by name, the first one winning a name both have. */
export const namedDocuments = ['current', 'legacy'];

// A body of one operation (its request, its answer, its error body) is reached through the operation's
// types (`CurrentOperations`, `Current.X`); only the resources, values and events get a name of their own.
const operationBody = /(Request|Response|Error)$/;
const localSchema = /^#\/components\/schemas\/([^/]+)$/;

const pascal = (name) => name.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_m, _sep, letter) => letter.toUpperCase());

/** The schema names each document exports (`documents`: name to bundled document), first document first. */
export function exportedSchemas(documents) {
  const taken = new Set();
  const byDocument = new Map();
  for (const name of namedDocuments) {
    const schemas = Object.keys(documents[name]?.components?.schemas ?? {}).filter((schema) => !operationBody.test(schema) && !taken.has(schema));
    for (const schema of schemas) taken.add(schema);
    byDocument.set(name, schemas);
  }
  return byDocument;
}

/**
 * Each callback of the current interface and the name of its event type: the schema its body refers to, or,
 * for a body written inline, `<PascalCaseName>Event` defined from the callback's own type.
 */
export function callbackEvents(document, exported) {
  return Object.entries(document?.webhooks ?? {}).map(([callback, item]) => {
    const ref = item.post?.requestBody?.content?.['application/json']?.schema?.$ref;
    const schema = ref && localSchema.exec(ref)?.[1];
    if (schema && exported.includes(schema)) return { callback, type: schema, inline: false };
    return { callback, type: `${pascal(callback)}Event`, inline: true };
  });
}

const list = (names) => names.map((name) => `  ${name},`).join('\n');

/** The text of src/generated/names.ts (without its header), or undefined without a current description. */
export function namesFile(documents) {
  if (!documents.current) return undefined;
  const schemas = exportedSchemas(documents);
  const events = callbackEvents(documents.current, schemas.get('current'));
  const parts = [];
  for (const [name, names] of schemas) {
    if (!names.length) continue;
    const where = name === 'current' ? '' : ' (where the current interface has no schema of that name)';
    parts.push(`// The schemas of the ${name} interface by name${where}.\nexport type {\n${list(names)}\n} from './${name}.js';\n`);
  }
  const named = events.filter((event) => !event.inline).map((event) => event.type);
  parts.push(`import type {\n${list([...named, 'webhooks'])}\n} from './current.js';\n`);
  for (const { callback, type } of events.filter((event) => event.inline)) {
    parts.push(
      `/** The body of the \`${callback}\` callback. */\n` +
        `export type ${type} = NonNullable<NonNullable<webhooks['${callback}']['post']>['requestBody']>['content']['application/json'];\n`,
    );
  }
  parts.push(
    `/** The name of each callback the service sends. */\nexport type CallbackType = keyof webhooks;\n` +
      `/** Any callback payload: a union discriminated by \`type\`. */\n` +
      `export type CallbackEvent =${events.length ? events.map((event) => `\n  | ${event.type}`).join('') : ' never'};\n`,
  );
  return parts.join('\n');
}
