// The score `npm run mutation` prints is the issue's: killed / (killed + survived), a timeout counting as
// killed and a mutant no test reaches as survived; ignored mutants and compile errors do not count.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { formatScores, scoreOf } from './mutation.mjs';

const mutants = (...statuses: string[]) => ({ mutants: statuses.map((status, id) => ({ id: String(id), status })) });

describe('the mutation score', () => {
  const rows = scoreOf({
    files: {
      'a.ts': mutants('Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError'),
      'b.ts': mutants('Killed'),
      'c.ts': mutants('Ignored'),
    },
  });

  it('counts timeouts as caught and mutants without coverage as missed, per file and in all', () => {
    expect(rows.map((row: { file: string; score: number | null }) => [row.file, row.score])).toEqual([['a.ts', 60], ['b.ts', 100], ['c.ts', null], ['all', (100 * 4) / 6]]);
    expect(rows[0]).toMatchObject({ killed: 2, timeout: 1, survived: 1, noCoverage: 1, ignored: 1, errors: 1 });
  });

  it('prints each file with its score and its caught / missed counts', () => {
    expect(formatScores('scripts', rows).split('\n')).toEqual([
      'scripts: score, killed + timeout / survived + no coverage',
      '   60.0%  3 / 2  a.ts (1 without coverage)',
      '  100.0%  1 / 0  b.ts',
      '     n/a  0 / 0  c.ts',
      '   66.7%  4 / 2  all (1 without coverage)',
    ]);
  });
});

describe('where a run writes', () => {
  it('keeps every configuration’s temporary copy, reports and incremental results under .mutation/, which git ignores', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const stryker = new URL('../stryker/', import.meta.url);
    const configs = readdirSync(stryker).filter((file) => file.endsWith('.mjs') && file !== 'scope.mjs');
    expect(configs).toContain('sandbox-isolated.mjs');
    for (const file of configs) {
      const config = (await import(new URL(file, stryker).href)).default;
      const paths = [config.tempDirName, config.incrementalFile, config.htmlReporter.fileName, config.jsonReporter.fileName];
      expect(paths.every((path: string) => path.startsWith('.mutation/')), `${file}: ${paths.join(', ')}`).toBe(true);
      expect(config.ignorePatterns).toContain('/.mutation');
    }
    expect(readFileSync(new URL('../.gitignore', import.meta.url), 'utf8').split('\n')).toContain('.mutation/');
  });
});

describe('what a scope mutates', () => {
  it('leaves out tests, type tests and test helpers wherever it takes a whole folder', async () => {
    const { readdirSync } = await import('node:fs');
    const stryker = new URL('../stryker/', import.meta.url);
    const configs = readdirSync(stryker).filter((file) => file.endsWith('.config.mjs'));
    expect(configs).toEqual(expect.arrayContaining(['client.config.mjs', 'sandbox.config.mjs']));
    for (const file of configs) {
      const { mutate } = (await import(new URL(file, stryker).href)).default as { mutate: string[] };
      for (const folder of mutate.filter((glob) => glob.endsWith('/**/*.ts')).map((glob) => glob.slice(0, -'*.ts'.length))) {
        // A mutant in a test file is never switched on by the code under test: counted as no coverage.
        for (const kind of ['*.test.ts', '*.test-d.ts', '*.test-helper.ts']) expect(mutate, `${file}: ${folder}${kind}`).toContain(`!${folder}${kind}`);
      }
    }
  });
});
