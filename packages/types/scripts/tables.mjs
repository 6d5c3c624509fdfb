// The tables generated beside the types: each operation's path, retry safety, body encodings and error
// keys (what the client builds its methods from), and each callback's required fields, field types and
// values, and example (what the callback receiver checks and the trigger sends).

function bodyKind(content = {}) {
  const types = Object.keys(content);
  if (types.includes('multipart/form-data')) return 'multipart';
  if (types.some((t) => t === 'application/json' || t.endsWith('+json'))) return 'json';
  if (types.length === 0) return 'none';
  if (types.every((t) => t.startsWith('text/'))) return 'text';
  return 'binary';
}

/** The node a local `$ref` (`#/components/...`) points at, through any chain of references. */
function deref(document, node) {
  while (node?.$ref) node = node.$ref.slice(2).split('/').reduce((at, key) => at?.[key], document);
  return node;
}

function errorKeys(document, responses) {
  const response = deref(document, responses['400']);
  const seen = new Set();
  const visit = (node) => {
    const schema = deref(document, node);
    if (!schema) return;
    for (const key of Object.keys(schema.properties ?? {})) {
      if (['argumentError', 'error', 'internalError'].includes(key)) seen.add(key);
    }
    for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) visit(branch);
  };
  visit(response?.content?.['application/json']?.schema);
  return [...seen].sort();
}

export function operationTable(document) {
  const rows = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'get']) {
      const operation = item[method];
      if (!operation) continue;
      rows[operation.operationId] = {
        path,
        method: method.toUpperCase(),
        idempotent: operation['x-idempotent'] === true,
        request: method === 'get' ? 'query' : bodyKind(operation.requestBody?.content),
        response: bodyKind(operation.responses['200']?.content),
        errorKeys: errorKeys(document, operation.responses),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      };
    }
  }
  return rows;
}

// What a callback receiver checks and a trigger sends, per event: required fields, each field's JSON
// types, format and fixed values, and the event's first documented example.
export function webhookTable(document) {
  const rows = {};
  for (const [name, item] of Object.entries(document.webhooks ?? {})) {
    const media = item.post.requestBody.content['application/json'];
    const schema = deref(document, media.schema);
    const fields = {};
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      const resolved = deref(document, property);
      fields[field] = {
        types: [].concat(resolved.type ?? []),
        ...(resolved.format ? { format: resolved.format } : {}),
        ...(resolved.enum ? { values: resolved.enum } : {}),
        ...(resolved.const !== undefined ? { values: [resolved.const] } : {}),
      };
    }
    rows[name] = { required: schema.required ?? [], fields, example: Object.values(media.examples ?? {})[0]?.value ?? schema.example };
  }
  return rows;
}
