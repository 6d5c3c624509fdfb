// One page of the API reference: Redoc's standalone script (the one `redocly build-docs --inlineBundle`
// inlines) and the description, in one self-contained HTML file that Redoc renders in the browser.
// Written here rather than by a `redocly build-docs` run per description: the CLI's start-up and its
// server-side pre-render took about 1.2 s of CPU a page, most of the docs build, and the browser renders
// the same page from the same script either way (an empty container is rendered, not hydrated).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The path of Redoc's standalone script in the pinned @redocly/cli (what its build-docs inlines). */
export const redocScriptPath = join(dirname(require.resolve('@redocly/cli/package.json')), 'lib/chunks/redoc.standalone.js');

// Redoc's sidebar fetches its "API docs by Redocly" logo from a CDN: replaced by a local one of the same words.
const cdnLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
const localLogo =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12">Redocly</text></svg>',
  ).toString('base64');

/** Redoc's script, ready to sit inside a <script> element; read once for every page. */
export function redocScript(path = redocScriptPath) {
  const script = readFileSync(path, 'utf8');
  if (!/export\s*\{[^}]*\bhydrate\b/.test(script.slice(-2000))) throw new Error(`${path}: Redoc's standalone script no longer exports hydrate`);
  return script.replace(cdnLogo, localLogo).replace(/<\/(script)/gi, '<\\/$1');
}

/** JSON that can sit inside a <script> element (as build-docs writes it). */
const scriptJson = (value) =>
  JSON.stringify(value)
    .replace(/\u2028|\u2029/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))
    .replace(/</g, '\\u003c');

const escapeHtml = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * The HTML page of `document`, rendered by Redoc with `options` (the `openapi` options of redocly.yaml).
 * The document is already bundled, so Redoc is told not to bundle it again (as build-docs does).
 */
export function referencePage({ document, options = {}, script }) {
  const redocOptions = { ...options, skipBundle: true, disableTelemetry: true };
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf8" />
  <title>${escapeHtml(document.info?.title ?? 'API reference')}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <style>body { padding: 0; margin: 0; }</style>
</head>
<body>
  <div id="redoc"></div>
  <script type="module">
${script}
const __redoc_definition = ${scriptJson(document)};
const __redoc_options = ${scriptJson(redocOptions)};
hydrate(__redoc_definition, __redoc_options, document.getElementById('redoc'));
  </script>
</body>
</html>
`;
}
