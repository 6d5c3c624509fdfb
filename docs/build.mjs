// Builds the self-contained API reference of each bundled description (Redoc with its script inlined,
// so the pages render offline) and copies the landing page beside them into dist/.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bundles = dirname(require.resolve('@idv-toolkit/openapi/current.json'));
mkdirSync('dist', { recursive: true });
for (const file of readdirSync(bundles).filter((name) => name.endsWith('.json'))) {
  const name = file.replace(/\.json$/, '');
  execFileSync('redocly', ['build-docs', join(bundles, file), '--inlineBundle', '--output', `dist/${name}.html`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
copyFileSync('site/index.html', 'dist/index.html');
