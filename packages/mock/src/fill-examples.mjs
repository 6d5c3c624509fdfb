// The mocks answer with a document's examples. So that a property added to a response schema shows in
// the mock's answer at once (`npm run dev`), without editing every example, each response example is
// completed with the `example` of every documented property it lacks. Only plain object schemas are
// completed: where a schema combines others (oneOf, anyOf, allOf), which properties belong together is
// not known, so the example stays as written.

function resolve(document, node) {
  while (node?.$ref) node = node.$ref.slice(2).split('/').reduce((at, key) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return node;
}

export function completeExample(document, schemaNode, value) {
  const schema = resolve(document, schemaNode);
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return schema.items ? value.map((item) => completeExample(document, schema.items, item)) : value;
  if (schema.oneOf || schema.anyOf || schema.allOf || !schema.properties) return value;
  const out = { ...value };
  for (const [name, property] of Object.entries(schema.properties)) {
    const resolved = resolve(document, property);
    if (name in out) out[name] = completeExample(document, property, out[name]);
    else if (resolved && 'example' in resolved) out[name] = completeExample(document, property, structuredClone(resolved.example));
  }
  return out;
}

/** A copy of the document whose 200 response examples carry every documented property. */
export function withCompleteExamples(document) {
  const copy = structuredClone(document);
  for (const item of Object.values(copy.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const media of Object.values(operation?.responses?.['200']?.content ?? {})) {
        for (const example of Object.values(media.examples ?? {})) example.value = completeExample(copy, media.schema, example.value);
      }
    }
  }
  return copy;
}
