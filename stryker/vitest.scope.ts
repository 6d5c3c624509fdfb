// The vitest configuration that Stryker runs for one scope: only the projects whose tests can kill that
// scope's mutants, quickest test files first, and modules kept loaded between the files of a run.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type Reporter, type TestSpecification } from 'vitest/node';

const root = fileURLToPath(new URL('..', import.meta.url));

// Stryker stops a mutant's run at the first failing test (bail), so running the quick files first lets the
// slow ones (redocly, servers) run only for the mutants that the quick ones let through. Each file's
// longest run so far is kept in .mutation/ of the copy of the repository that Stryker tests in (its
// first, full run times every file), so a test process that Stryker restarts still knows them.
const durationsFile = join(root, '.mutation', 'test-durations.json');
// A test process that Stryker kills (a mutant's timeout) while it writes the file leaves it empty or cut:
// the next process then starts with no durations rather than failing to load this configuration.
const readDurations = (): [string, number][] => {
  try {
    return existsSync(durationsFile) ? JSON.parse(readFileSync(durationsFile, 'utf8')) : [];
  } catch {
    return [];
  }
};
const durations = new Map<string, number>(readDurations());
const keyOf = (project: string, moduleId: string) => `${project}:${moduleId}`;

const recordDurations: Reporter = {
  onTestRunEnd(modules) {
    for (const module of modules) {
      const key = keyOf(module.project.name, module.moduleId);
      durations.set(key, Math.max(durations.get(key) ?? 0, module.diagnostic().duration));
    }
    mkdirSync(join(root, '.mutation'), { recursive: true });
    // Written beside it and renamed: a process killed while writing never leaves a cut file.
    writeFileSync(`${durationsFile}.${process.pid}`, JSON.stringify([...durations]));
    renameSync(`${durationsFile}.${process.pid}`, durationsFile);
  },
};

class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = (spec: TestSpecification) => durations.get(keyOf(spec.project.name, spec.moduleId)) ?? 0;
    return [...files].sort((a, b) => duration(a) - duration(b));
  }
}

/**
 * `projects`: each project's folder, its own vitest configuration (the one `npm test` runs), and the test
 * files left out of mutation runs because they check the repository's state rather than the code's
 * behaviour (each is named, with why, in docs/testing.md).
 */
export function scopeConfig(projects: [dir: string, config: TestProjectInlineConfiguration, leftOut?: string[]][]) {
  return defineConfig({
    test: {
      root,
      reporters: ['default', recordDurations],
      sequence: { sequencer: QuickestFirst },
      projects: projects.map(([dir, config, leftOut = []]) => ({
        ...config,
        test: {
          ...config.test,
          root: join(root, dir),
          exclude: [...(config.test?.exclude ?? configDefaults.exclude), ...leftOut],
          // Not isolated: the files of one run share the modules they import (typescript, ajv, redocly's
          // core) instead of loading them once per file.
          isolate: false,
          // No type tests: a mutant changes what the code does, not its types, and tsc per mutant is slow.
          typecheck: { enabled: false },
          // Instrumented code runs slower (property tests most of all); a mutant that hangs is caught by
          // Stryker's own timeout, which it derives from the first run.
          testTimeout: Math.max(config.test?.testTimeout ?? 5_000, 60_000),
        },
      })),
    },
  });
}
