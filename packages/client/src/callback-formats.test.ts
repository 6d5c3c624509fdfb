import { webhookTable } from '@idv-toolkit/types';
import { describe, expect, it } from 'vitest';
import { formatCheckers } from './callback-formats.js';
import { CallbackError, parseCallback } from './callbacks.js';

const callbackApiKey = 'cb_test_not_a_real_key_0000';

// Per format: values that hold it and values that break it.
const samples: Record<string, { good: string[]; bad: string[] }> = {
  uri: {
    good: ['https://verify.example.com/?session_token=6f1c2a7e', 'urn:isbn:0451450523', 'mailto:jane.roe@example.com', 'https://example.com/a%20b', 's3://bucket/key'],
    bad: ['verify.example.com/session', '/relative/path', 'https://example.com/a b', 'https://exa mple.com/', 'https://example.com/%zz', 'https://example.com/%2g', ' https://example.com/', '', 'http://[::1'],
  },
  email: {
    good: ['jane.roe@example.com', 'first.last+tag@mail.example.org', 'x@a.io', 'x@a.b', 'jane.2@example.com', 'x@a12b.example.com', 'x@a1.example.com', 'x@example.4u', 'x@example.a1b', 'x@example.a1'],
    bad: ['jane.roe', 'jane roe@example.com', '@example.com', 'jane@', 'jane@localhost', 'jane@@example.com', 'jane.@example.com', 'jane@example.com!', 'jane@-example.com', ''],
  },
  'date-time': {
    good: ['2026-11-23T10:00:00Z', '2026-11-23t10:00:00.123+02:00', '2016-12-31T23:59:60Z', '0099-12-31T00:00:00Z'],
    bad: ['2026-11-23', 'x2026-11-23T10:00:00Z', '2026-11-23T10:00:00Zx', '2026-11-23T10:00:00', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23T10:60:00Z', '2026-11-23T10:00:61Z', '2026-11-23T10:00:00+24:00', '2026-11-23T10:00:00+02:60', 'yesterday'],
  },
  date: {
    good: ['2026-11-23', '2024-02-29', '0001-01-01', '2026-12-31'],
    bad: ['2026-11-23T10:00:00Z', 'x2026-11-23', '2026-12-32', '2025-02-29', '2026-00-10', '2026-11-31', '23.11.2026', ''],
  },
  uuid: {
    good: ['6f1c2a7e-0b1d-4c3e-9f2a-1b2c3d4e5f60', '6F1C2A7E-0B1D-4C3E-9F2A-1B2C3D4E5F60'],
    bad: ['6f1c2a7e-session-0001', '6f1c2a7e0b1d4c3e9f2a1b2c3d4e5f60', '6f1c2a7e-0b1d-4c3e-9f2a-1b2c3d4e5f6', 'g f1c2a7e-0b1d-4c3e-9f2a-1b2c3d4e5f60', 'x6f1c2a7e-0b1d-4c3e-9f2a-1b2c3d4e5f60', '6f1c2a7e-0b1d-4c3e-9f2a-1b2c3d4e5f60x', ''],
  },
};

/** Every field of every callback in the spec that carries a format. */
const formattedFields = Object.entries(webhookTable).flatMap(([type, { fields, example }]) =>
  Object.entries(fields as Record<string, { format?: string }>)
    .filter(([, rule]) => rule.format !== undefined)
    .map(([field, rule]) => ({ type, field, format: rule.format!, example: example as Record<string, unknown> })),
);

describe('callback formats', () => {
  it('are read from the spec: the callbacks carry uri and email fields', () => {
    expect(new Set(formattedFields.map(({ format }) => format))).toEqual(new Set(['uri', 'email']));
    expect(formattedFields).toContainEqual(expect.objectContaining({ type: 'share-session-link-via-sms', field: 'sessionLink', format: 'uri' }));
  });

  it('have a checker for every format the spec uses (a new format there fails here until it has one)', () => {
    for (const { format } of formattedFields) expect(Object.keys(formatCheckers)).toContain(format);
  });

  it.each(Object.entries(samples))('%s: accepts what holds it and refuses what breaks it', (format, { good, bad }) => {
    const check = formatCheckers[format]!;
    for (const value of good) expect([value, check(value)]).toEqual([value, true]);
    for (const value of bad) expect([value, check(value)]).toEqual([value, false]);
  });

  it.each(formattedFields.map((entry) => [`${entry.type}.${entry.field} (${entry.format})`, entry] as const))(
    'a callback whose %s breaks its format is refused with CallbackError',
    (_name, { type, field, format, example }) => {
      expect(() => parseCallback({ ...example, [field]: example[field] }, { callbackApiKey })).not.toThrow();
      for (const value of samples[format]!.bad) {
        let error: unknown;
        try {
          parseCallback({ ...example, [field]: value }, { callbackApiKey });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(CallbackError);
        expect(error).toMatchObject({ reason: 'malformed', status: 400, message: `${type}: ${field} is not a valid ${format}` });
      }
    },
  );

  it('are checked on strings only, as JSON Schema says (a wrong type is refused by the type rule)', () => {
    const { example } = webhookTable['share-session-link-via-email'];
    expect(() => parseCallback({ ...example, address: 42 }, { callbackApiKey })).toThrow('share-session-link-via-email: address is not a valid value');
  });
});
