// Builds docs/dist: the self-contained API reference of each bundled description (Redoc with its script
// inlined, so the pages render offline), with a TypeScript and a curl sample on every operation
// (code-samples.mjs, added to the copy Redoc renders, never to openapi/); the guides and package READMEs
// rendered with markdown-it (site/render.mjs); the landing page; a search index; and the bundled
// descriptions as JSON and YAML downloads. The pages load nothing from outside: Redoc's sidebar fetches
// its "API docs by Redocly" logo from a CDN, so that image is replaced by a local one of the same words.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { readOperationTable, withCodeSamples } from './code-samples.mjs';
import { references } from './site/pages.mjs';
import { fill, renderSite } from './site/render.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const bundles = dirname(require.resolve('@idv-toolkit/openapi/current.json'));
// The CLI's own script, started with node: going through npx costs about 0.35 s a page.
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const localLogo =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12">Redocly</text></svg>',
  ).toString('base64');
const dist = join(here, 'dist');
mkdirSync(join(dist, 'openapi'), { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'idv-docs-'));

const documents = Object.fromEntries(references.map(({ api }) => [api, JSON.parse(readFileSync(join(bundles, `${api}.json`), 'utf8'))]));

// The reference pages: one Redoc build per description, side by side (a CLI run each).
const redocBuilds = references.map(async ({ api, output }) => {
  const table = readOperationTable(join(root, `packages/types/src/generated/${api}-operations.ts`));
  const document = withCodeSamples(api, documents[api], table);
  document.info.description = `[Home: the guides and the other references](index.html)\n\n${document.info.description}`;
  const input = join(work, `${api}.json`);
  writeFileSync(input, JSON.stringify(document));
  await promisify(execFile)(process.execPath, [redocly, 'build-docs', input, '--config', join(here, 'redocly.yaml'), '--inlineBundle', '--output', join(dist, output)]);
  const file = join(dist, output);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, localLogo));
});

// While Redoc builds: the downloads, the guides and the landing page.
for (const { api } of references) {
  copyFileSync(join(bundles, `${api}.json`), join(dist, 'openapi', `${api}.json`));
  writeFileSync(join(dist, 'openapi', `${api}.yaml`), toYaml(documents[api], { aliasDuplicateObjects: false, lineWidth: 0 }));
}

/** Each path file of openapi/<api>/paths/ and its operation, so that a guide can link a path file. */
const operationsByPathFile = new Map();
const operations = [];
for (const { api } of references) {
  const source = parseYaml(readFileSync(join(root, `openapi/${api}/openapi.yaml`), 'utf8'));
  operationsByPathFile.set(`openapi/${api}/openapi.yaml`, { api });
  for (const [path, item] of Object.entries(documents[api].paths)) {
    const operation = item.post ?? Object.values(item)[0];
    operations.push({ api, path, operationId: operation.operationId, summary: operation.summary });
    const ref = source.paths?.[path]?.$ref;
    if (ref) operationsByPathFile.set(`openapi/${api}/${ref}`, { api, operationId: operation.operationId });
  }
}
const template = readFileSync(join(here, 'site/template.html'), 'utf8');
const { rendered, index, pages } = renderSite({ root, template, operationsByPathFile, operations });
for (const { output, html } of rendered) {
  mkdirSync(dirname(join(dist, output)), { recursive: true });
  writeFileSync(join(dist, output), html);
}
const home = { source: 'docs/site/home.html', output: 'index.html', title: 'Guides and API reference' };
writeFileSync(join(dist, 'index.html'), fill(template, { page: home, pages, body: readFileSync(join(here, 'site/home.html'), 'utf8') }));
index.unshift({ title: 'Downloads: the OpenAPI descriptions', url: 'index.html#downloads', kind: 'Home', text: 'JSON YAML bundled descriptions' });
writeFileSync(join(dist, 'search-index.json'), JSON.stringify(index));
for (const file of ['site.css', 'search.js']) copyFileSync(join(here, 'site', file), join(dist, file));

await Promise.all(redocBuilds).finally(() => rmSync(work, { recursive: true, force: true }));

