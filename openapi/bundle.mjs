// Bundles every API named in redocly.yaml into dist/<name>.json (one self-contained document each),
// the form that the generators, the mock, the sandbox and the docs read. In one process through
// Redocly's library (the CLI's engine, same output), which is faster than a CLI start per API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { bundle, loadConfig } from '@redocly/openapi-core';

const config = await loadConfig({ configPath: 'redocly.yaml' });
mkdirSync('dist', { recursive: true });
for (const [alias, { root }] of Object.entries(config.resolvedConfig.apis ?? {})) {
  const { bundle: result, problems } = await bundle({ ref: root, config: config.forAlias(alias) });
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length) {
    console.error(`${alias}: ${errors.map((problem) => problem.message).join('\n')}`);
    process.exit(1);
  }
  writeFileSync(`dist/${alias.split('@')[0]}.json`, JSON.stringify(result.parsed, null, 2));
}
