/**
 * The base URL without a trailing slash, or a TypeError that names what is wrong with it. The message
 * never repeats the URL: a key pasted into it by mistake would end up in a log.
 */
export function checkBaseUrl(baseUrl: unknown, companyKey: string): string {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl as string);
  } catch {
    // named below
  }
  const problem =
    typeof baseUrl !== 'string' || baseUrl === ''
      ? 'is missing'
      : baseUrl.includes(companyKey)
        ? 'holds the company key'
        : !url
          ? 'is not a URL'
          : !/^https?:$/.test(url.protocol)
            ? `is not http(s): ${url.protocol}`
            : url.username || url.password
              ? 'holds a user name or password'
              : // `https://host/?` parses to an empty search, so look at the text itself.
                /[?#]/.test(baseUrl)
                ? 'has a query or fragment'
                : '';
  if (problem) throw new TypeError(`baseUrl ${problem}`);
  return (baseUrl as string).replace(/\/+$/, '');
}
