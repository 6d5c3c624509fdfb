// Checkers of the JSON Schema `format`s a callback field may carry. Which field has which format is read
// from the spec (webhookTable, generated); only how to check a format by name is written here, and
// callback-formats.test.ts fails for a format the spec uses that has no checker. Hand-written rather than
// ajv-formats: that package brings ajv along, far more than a client should carry for five patterns.

/** A calendar date that exists (`2026-02-30` does not). */
function isDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 date-time: a time offset is required; a leap second (:60) is allowed.
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const uuidPattern = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
// RFC 3986 absolute URI: a scheme, then only the characters a URI may hold (a space or a quote may not),
// with every `%` starting an escape.
const uriPattern = /^[a-z][a-z\d+.-]*:(?:[\w\-.~:/?#[\]@!$&'()*+,;=]|%[\da-f]{2})*$/i;
// The practical subset of RFC 5321 that ajv-formats checks too: dot-separated atoms, `@`, a host name
// with at least one dot.
const emailPattern =
  /^[a-z\d!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z\d!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?\.)+[a-z\d](?:[a-z\d-]{0,61}[a-z\d])?$/i;

/** Whether a string holds its format, by format name. A format without a checker here is not checked. */
export const formatCheckers: Readonly<Record<string, (value: string) => boolean>> = {
  date: (value) => {
    const match = datePattern.exec(value);
    return !!match && isDate(+match[1]!, +match[2]!, +match[3]!);
  },
  'date-time': (value) => {
    const match = dateTimePattern.exec(value);
    if (!match) return false;
    // `Z` leaves the offset's groups empty: a zero offset.
    const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.map((part = '0') => Number(part)) as number[];
    return isDate(year!, month!, day!) && hour! < 24 && minute! < 60 && second! <= 60 && offsetHour! < 24 && offsetMinute! < 60;
  },
  uuid: (value) => uuidPattern.test(value),
  uri: (value) => uriPattern.test(value) && URL.canParse(value),
  email: (value) => emailPattern.test(value),
};
