// The request targets Prism must not see. Prism throws on some: an uncaught URIError on `/check-in-%`
// (also `%ff`, `%E2%82`) ended its process, and `//[` got a 500. prism-preload.mjs answers them with 400
// inside each Prism process, before Prism's own handler runs.

/**
 * The origin-form path Prism may be given for a request target, or null when the target is malformed:
 * not a path (or an absolute http(s) URL, which becomes its path), a path that starts with `//` (which URL
 * parsers read as a host), or bad percent-encoding anywhere.
 */
export function originForm(target) {
  let path = target;
  if (!target.startsWith('/')) {
    if (!/^https?:\/\//i.test(target)) return null;
    try {
      const url = new URL(target);
      path = url.pathname + url.search;
    } catch {
      return null;
    }
  }
  if (path.startsWith('//')) return null;
  try {
    decodeURIComponent(path);
  } catch {
    return null;
  }
  return path;
}

/** The answer to a malformed request target: 400 with a problem+json body, like Prism's own refusals. */
export function refuse(req, res) {
  req.resume();
  const body = JSON.stringify({ title: 'Malformed request target', status: 400, detail: 'The request target must be a path with valid percent-encoding.' });
  res.writeHead(400, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
