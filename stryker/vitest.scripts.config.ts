import project from '../scripts/vitest.config';
import { scopeConfig } from './vitest.scope';

// Only the test files that load check-breaking.mjs or breaking-gate.mjs in their own process can kill a
// mutant of them (a script run as a child process runs without Stryker's active mutant); the rest of the
// scripts project (typecheck, serve-all, the dev scripts, the packed packages) would only lengthen each
// run's first, unmutated pass by minutes.
const include = ['check-breaking*.test.ts', 'breaking-gate.test.ts', 'breaking-change-words.test.ts', 'compared-apis.test.ts'];

export default scopeConfig([['scripts', { ...project, test: { ...project.test, include } }, ['api-compatibility.test.ts']]]);
