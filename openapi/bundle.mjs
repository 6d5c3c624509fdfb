// Bundles every API named in redocly.yaml into dist/<name>.json (one self-contained document each),
// the form that the generators, the mock, the sandbox and the docs read.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const { apis } = parse(readFileSync(new URL('./redocly.yaml', import.meta.url), 'utf8'));
for (const alias of Object.keys(apis)) {
  const name = alias.split('@')[0];
  execFileSync('npx', ['--no-install', 'redocly', 'bundle', alias, '--output', `dist/${name}.json`], { stdio: ['ignore', 'ignore', 'inherit'] });
}
