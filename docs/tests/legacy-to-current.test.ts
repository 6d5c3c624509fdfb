// The tables of docs/legacy-to-current.md against the descriptions: every legacy operation has a row,
// every row names real operations and paths of openapi/legacy and openapi/current, and every request
// field of a legacy operation with a counterpart has its current field, which that operation really has.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[] };
type Operation = { operationId: string; requestBody: { content: Record<string, { schema: Schema }> } };
type Document = { paths: Record<string, { post: Operation }> };

const require = createRequire(import.meta.url);
const bundle = (name: string): Document => JSON.parse(readFileSync(require.resolve(`@idv-toolkit/openapi/${name}.json`), 'utf8'));
const legacy = bundle('legacy');
const current = bundle('current');
const guide = readFileSync(new URL('../legacy-to-current.md', import.meta.url), 'utf8');

/** The rows of the Markdown table that follows `## <heading>`, as arrays of cells with backquotes removed. */
export function tableRows(markdown: string, heading: string): string[][] {
  const section = markdown.split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim().replaceAll('`', '')));
}

function operations(document: Document) {
  return new Map(Object.entries(document.paths).map(([path, item]) => [item.post.operationId, { path, operation: item.post }]));
}

function requestFields(document: Document, operation: Operation): string[] {
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(schema.$ref.split('/').slice(1).reduce((at: any, key) => at[key], document)) : schema);
  const collect = (schema: Schema): string[] => {
    const resolved = resolve(schema);
    return [...Object.keys(resolved.properties ?? {}), ...(resolved.allOf ?? []).flatMap(collect)];
  };
  return collect(Object.values(operation.requestBody.content)[0]!.schema);
}

const legacyOperations = operations(legacy);
const currentOperations = operations(current);
const operationRows = tableRows(guide, 'Operations');
const fieldRows = tableRows(guide, 'Fields');

describe('the legacy-to-current guide', () => {
  it('has a row for every legacy operation, once', () => {
    expect(operationRows.map((row) => row[0]).sort()).toEqual([...legacyOperations.keys()].sort());
  });

  it.each(operationRows.map((row) => [row[0]!, row] as const))('%s: its paths and its current counterpart are those of the descriptions', (_id, row) => {
    const [legacyId, legacyPath, currentId, currentPath] = row;
    expect(legacyOperations.get(legacyId!)?.path).toBe(legacyPath);
    if (currentId === '—') expect(currentPath).toBe('—');
    else expect(currentOperations.get(currentId!)?.path).toBe(currentPath);
  });

  it('maps every request field of each legacy operation that has a counterpart, to a field that operation has', () => {
    const counterparts = operationRows.filter((row) => row[2] !== '—');
    expect(counterparts.length).toBeGreaterThan(0);
    for (const [legacyId, , currentId] of counterparts) {
      const mapped = fieldRows.filter((row) => row[0] === legacyId);
      expect(mapped.map((row) => row[1]).sort(), legacyId).toEqual(requestFields(legacy, legacyOperations.get(legacyId!)!.operation).sort());
      const currentFields = requestFields(current, currentOperations.get(currentId!)!.operation);
      for (const [, field, currentField] of mapped) expect(currentFields, `${legacyId}.${field} -> ${currentId}.${currentField}`).toContain(currentField);
    }
    // No row for an operation the table says has no counterpart.
    for (const [legacyId] of fieldRows) expect(counterparts.map((row) => row[0])).toContain(legacyId);
  });
});
