import project from '../packages/client/vitest.config';
import { scopeConfig } from './vitest.scope';

// MUTATION_TESTS=src/a.test.ts,src/b.test.ts runs only those test files (paths relative to packages/client),
// for a quick look at one file's mutants; its score is a lower bound (docs/testing.md).
const only = process.env.MUTATION_TESTS?.split(',').filter(Boolean);

export default scopeConfig([['packages/client', only ? { ...project, test: { ...project.test, include: only } } : project]]);
