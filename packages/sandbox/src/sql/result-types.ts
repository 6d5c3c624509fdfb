// What a value of each column type becomes in JavaScript, made the same for PGlite and postgres.js so
// that no code (and no test) can tell the two apart: int8 (bigint, count(*)) is a number while it is a
// safe integer and a BigInt beyond; bytea is a Buffer; json/jsonb are parsed; timestamptz is a Date;
// numeric stays a string (exact). A json/jsonb parameter may be a value (serialised) or a string, taken as
// JSON text already (PGlite's way). Both drivers already agree on the rest.
const INT8 = 20;
const BYTEA = 17;
const JSON_OID = 114;
const JSONB = 3802;

const serializeJson = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export const parseInt8 = (text: string): number | bigint => {
  const value = BigInt(text);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
};

/** PostgreSQL's text form of bytea is `\x` and hex digits. */
const parseBytea = (text: string): Buffer => Buffer.from(text.slice(2), 'hex');

type Parser = (text: string) => unknown;
// `any`: postgres.js's own type for a custom type's serializer, which takes what the caller passes.
type PostgresType = { to: number; from: number[]; serialize: (value: any) => string; parse: Parser };

export const sameResults: { parsers: Record<number, Parser>; postgresTypes: Record<'int8' | 'json' | 'jsonb', PostgresType> } = {
  /** For PGlite's `parsers` option. */
  parsers: { [INT8]: parseInt8, [BYTEA]: parseBytea },
  /** For postgres.js's `types` option. */
  postgresTypes: {
    int8: { to: INT8, from: [INT8], serialize: (value: number | bigint) => String(value), parse: parseInt8 },
    json: { to: JSON_OID, from: [JSON_OID], serialize: serializeJson, parse: (text: string) => JSON.parse(text) as unknown },
    jsonb: { to: JSONB, from: [JSONB], serialize: serializeJson, parse: (text: string) => JSON.parse(text) as unknown },
  },
};
