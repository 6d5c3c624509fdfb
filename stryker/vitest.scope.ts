// The vitest configuration that Stryker runs for one scope: only the projects whose tests can kill that
// scope's mutants, quickest test files first, and modules kept loaded between mutants.
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = fileURLToPath(new URL('..', import.meta.url));

// Stryker stops a mutant's run at the first failing test (bail), so running the quick files first lets the
// slow ones (redocly, servers) run only for the mutants that the quick ones let through. Durations come
// from vitest's results cache; a file never timed runs first.
class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const duration = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)?.duration ?? 0;
    return [...files].sort((a, b) => duration(a) - duration(b));
  }
}

/** `projects`: each project's folder and its own vitest configuration (the one `npm test` runs). */
export function scopeConfig(projects: [dir: string, config: TestProjectInlineConfiguration][]) {
  return defineConfig({
    test: {
      root,
      sequence: { sequencer: QuickestFirst },
      projects: projects.map(([dir, config]) => ({
        ...config,
        // Not isolated: the test files' imports (typescript, ajv, redocly's core) load once instead of
        // once per mutant. Stryker switches mutants at run time, so a loaded module still sees each one.
        test: { ...config.test, root: join(root, dir), isolate: false },
      })),
    },
  });
}
