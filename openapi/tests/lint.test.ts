import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { apiNames, openapiDir, redoclyEnv } from './bundles.js';

type LintReport = { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };

describe.each(apiNames)('redocly lint of the %s description', (name) => {
  it('reports no error and no warning', () => {
    const run = spawnSync('npx', ['redocly', 'lint', `${name}@v1`, '--format=json', '--max-problems=1000'], {
      cwd: openapiDir,
      env: redoclyEnv,
      encoding: 'utf8',
    });
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as LintReport;
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
