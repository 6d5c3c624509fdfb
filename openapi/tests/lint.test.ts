import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiNames, openapiDir, redoclyEnv } from './bundles.js';

type LintReport = { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };

// The redocly CLI as `npm run lint` runs it, from its own script (no npx process in front); the three
// lints mostly wait to start, so they run at once.
const redoclyCli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
const lint = (name: string) =>
  new Promise<string>((resolve) => {
    execFile(process.execPath, [redoclyCli, 'lint', `${name}@v1`, '--format=json', '--max-problems=1000'], { cwd: openapiDir, env: redoclyEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (_error, stdout) => resolve(stdout));
  });
const reports = new Map<string, Promise<string>>();
beforeAll(() => {
  for (const name of apiNames) reports.set(name, lint(name));
});

describe.each(apiNames)('redocly lint of the %s description', (name) => {
  it('reports no error and no warning', async () => {
    const stdout = await reports.get(name)!;
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    const problems = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});
