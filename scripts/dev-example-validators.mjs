// The example rules' validators kept across lints, for `npm run dev` (issue 16). Redocly's three example
// rules (no-invalid-media-type-examples, no-invalid-schema-examples, assertions) make a new AjvValidator at
// every lint, so every lint compiles every example's schema with Ajv again: 80 % of the lint's CPU for the
// current description, though a save changes one or two schemas. Installed, a schema's compiled validator
// is kept, keyed by its content and the content of every schema it reaches by `$ref` (with where each
// `$ref` lands), and reused by a later lint whose schema is the same: a schema that changed, or that
// reaches one that changed, is compiled again, in that lint's own Ajv, as Redocly does. A kept validator
// holds the Ajv that compiled it; the schemas it reaches were the same then, so it answers as a fresh one.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
// Not in @redocly/openapi-core's exports; the rules import this very file, so its class is theirs.
const ajvModule = pathToFileURL(require.resolve('@redocly/openapi-core').replace(/index\.js$/, 'rules/ajv.js')).href;

/** How many validators are kept: the least recently used go first (the current description has about 400). */
export const keptValidators = 4_000;

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The key of `schema` (found at `file`) with every schema it reaches through `$ref`, as Redocly's `resolve`
 * finds them: undefined when a `$ref` does not resolve (Redocly then reports it, each lint).
 */
export function schemaKey(schema, file, resolve) {
  const parts = [JSON.stringify(schema)];
  const seen = new Set();
  const pending = [[schema, file]];
  while (pending.length) {
    const [node, from] = pending.pop();
    const visit = (value) => {
      if (Array.isArray(value)) return value.every(visit);
      if (!isPlainObject(value)) return true;
      if (typeof value.$ref === 'string') {
        const target = resolve({ $ref: value.$ref }, from);
        if (!target?.location) return false;
        const at = target.location.absolutePointer;
        // Where the $ref was written and where it lands: the same text may land elsewhere from another file.
        parts.push(`${from} ${value.$ref} -> ${at}`);
        if (!seen.has(at)) {
          seen.add(at);
          parts.push(JSON.stringify(target.node) ?? 'undefined');
          pending.push([target.node, target.location.source.absoluteRef]);
        }
      }
      return Object.values(value).every(visit);
    };
    if (!visit(node)) return undefined;
  }
  return parts.join('\n');
}

let installed;

/**
 * Keeps the example rules' validators across lints in this process (idempotent). Resolves to counters:
 * `{ compiled, reused }`, validators compiled and reused since the install.
 */
export async function keepExampleValidators({ limit = keptValidators } = {}) {
  if (installed) return installed;
  const { AjvValidator } = await import(ajvModule);
  const compileOwn = AjvValidator.prototype.getValidator;
  const kept = new Map();
  const counts = { compiled: 0, reused: 0, kept: () => kept.size };
  AjvValidator.prototype.getValidator = function keptValidator(schema, loc, resolve, allowAdditionalProperties, dialect) {
    const content = loc?.source?.absoluteRef && schemaKey(schema, loc.source.absoluteRef, resolve);
    if (content === undefined) return compileOwn.call(this, schema, loc, resolve, allowAdditionalProperties, dialect);
    const key = `${dialect} ${allowAdditionalProperties} ${loc.absolutePointer}\n${content}`;
    const found = kept.get(key);
    if (found) {
      kept.delete(key);
      kept.set(key, found);
      counts.reused += 1;
      return found;
    }
    const validate = compileOwn.call(this, schema, loc, resolve, allowAdditionalProperties, dialect);
    if (validate) {
      counts.compiled += 1;
      kept.set(key, validate);
      if (kept.size > limit) kept.delete(kept.keys().next().value);
    }
    return validate;
  };
  installed = counts;
  return counts;
}
