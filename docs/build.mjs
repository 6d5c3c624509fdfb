// Builds the self-contained API reference of each bundled description (Redoc with its script inlined,
// so the pages render offline) and copies the landing page beside them into dist/. The pages must load
// nothing from outside: Redoc's sidebar fetches its "API docs by Redocly" logo from a CDN, so that image
// is replaced by a local one of the same words.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const bundles = dirname(require.resolve('@idv-toolkit/openapi/current.json'));
// The CLI's own script, started with node: going through npx costs about 0.35 s a page.
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');
const localLogo =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12">Redocly</text></svg>',
  ).toString('base64');
mkdirSync('dist', { recursive: true });
// One Redoc build per description, side by side: each is a CLI run of its own.
await Promise.all(
  readdirSync(bundles)
    .filter((name) => name.endsWith('.json'))
    .map(async (file) => {
      const output = `dist/${file.replace(/\.json$/, '')}.html`;
      await promisify(execFile)(process.execPath, [redocly, 'build-docs', join(bundles, file), '--inlineBundle', '--output', output]);
      writeFileSync(output, readFileSync(output, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g, localLogo));
    }),
);
copyFileSync('site/index.html', 'dist/index.html');
