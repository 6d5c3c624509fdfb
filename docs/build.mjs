// Builds docs/dist: the self-contained API reference of each bundled description (Redoc's standalone script
// inlined, so the pages render offline: reference-page.mjs), with a TypeScript and a curl sample on every
// operation (code-samples.mjs, added to the copy Redoc renders, never to openapi/); the guides and package
// READMEs rendered with markdown-it (site/render.mjs); the landing page; a search index; and the bundled
// descriptions as JSON and YAML downloads. The pages load nothing from outside.
// `--guides` builds only the Markdown pages, the landing page and the search index (what `npm run dev` does
// when a guide changes); `--root` reads the pages' sources from another copy of the repository and `--out`
// writes elsewhere than docs/dist (both for tests).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import yaml from 'js-yaml';
import { readOperationTable, withCodeSamples } from './code-samples.mjs';
import { redocScript, referencePage } from './reference-page.mjs';
import { references } from './site/pages.mjs';
import { fill, renderSite } from './site/render.mjs';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { guides: { type: 'boolean', default: false }, root: { type: 'string' }, out: { type: 'string' } } });
const root = resolve(flags.root ?? join(here, '..'));
const bundles = dirname(require.resolve('@idv-toolkit/openapi/current.json'));
const dist = resolve(flags.out ?? join(here, 'dist'));
mkdirSync(join(dist, 'openapi'), { recursive: true });

const documents = Object.fromEntries(references.map(({ api }) => [api, JSON.parse(readFileSync(join(bundles, `${api}.json`), 'utf8'))]));

if (!flags.guides) {
  // The reference pages: Redoc's script and each description with its code samples.
  const script = redocScript();
  const redocOptions = yaml.load(readFileSync(join(here, 'redocly.yaml'), 'utf8'))?.openapi ?? {};
  for (const { api, output } of references) {
    const table = readOperationTable(join(root, `packages/types/src/generated/${api}-operations.ts`));
    const document = withCodeSamples(api, documents[api], table);
    document.info.description = `[Home: the guides and the other references](index.html)\n\n${document.info.description}`;
    writeFileSync(join(dist, output), referencePage({ document, options: redocOptions, script }));
  }

  // The downloads. js-yaml writes a description's YAML in a tenth of the time the yaml library takes.
  for (const { api } of references) {
    copyFileSync(join(bundles, `${api}.json`), join(dist, 'openapi', `${api}.json`));
    writeFileSync(join(dist, 'openapi', `${api}.yaml`), yaml.dump(documents[api], { noRefs: true, lineWidth: -1 }));
  }
}

/** Each path file of openapi/<api>/paths/ and its operation, so that a guide can link a path file. */
const operationsByPathFile = new Map();
const operations = [];
for (const { api } of references) {
  const source = yaml.load(readFileSync(join(root, `openapi/${api}/openapi.yaml`), 'utf8'));
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

