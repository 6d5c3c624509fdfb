// Checkers of the JSON Schema `format`s a callback field may carry. Which field has which format is read
// from the spec (webhookTable, generated); only how to check a format by name is written here, and
// callback-formats.test.ts fails for a format the spec uses that has no checker. Hand-written rather than
// ajv-formats: that package brings ajv along, far more than a client should carry for five patterns.

/** A calendar date that exists (`2026-02-30` does not): a day outside its month (00 to 99) moves the month. */
function isDate(year: string, month: string, day: string): boolean {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps the years 0 to 99 as they are.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  return date.getUTCMonth() === Number(month) - 1;
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
    return !!match && isDate(match[1]!, match[2]!, match[3]!);
  },
  'date-time': (value) => {
    const match = dateTimePattern.exec(value);
    if (!match) return false;
    // `Z` leaves the offset's groups empty: a zero offset.
    const [, year, month, day, hour, minute, second, offsetHour = '0', offsetMinute = '0'] = match;
    return isDate(year!, month!, day!) && Number(hour) < 24 && Number(minute) < 60 && Number(second) <= 60 && Number(offsetHour) < 24 && Number(offsetMinute) < 60;
  },
  uuid: (value) => uuidPattern.test(value),
  uri: (value) => uriPattern.test(value) && URL.canParse(value),
  email: (value) => emailPattern.test(value),
};
