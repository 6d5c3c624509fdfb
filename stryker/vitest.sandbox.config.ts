import project from '../packages/sandbox/vitest.config';
import { scopeConfig } from './vitest.scope';

// Left out of mutation runs (docs/testing.md says why for each): tests that run the sandbox in a child
// process, which runs dist/ and never a mutant; measurements of memory, descriptors and event-loop time,
// which take minutes for each mutant they reach and assert figures rather than behaviour (the rules they
// rest on are pinned by quick tests); and the browser tests, which start chromium.
const leftOut = ['src/cli.test.ts', 'src/request-log.test.ts', 'src/callback-bounds.test.ts', 'src/memory.test.ts', 'src/event-loop.test.ts', 'src/**/*.browser.test.ts'];

// MUTATION_TESTS=src/a.test.ts,src/b.test.ts runs only those test files: every mutant of the server, the
// body reader or the rate limit is reached by nearly every test file, and vitest loads each file it runs
// for every mutant, so a run of a few files with the tests that aim at them takes minutes instead of
// hours. Its score is a lower bound: a mutant that only a file left out would kill counts as survived.
const only = process.env.MUTATION_TESTS?.split(',').filter(Boolean);

export default scopeConfig([['packages/sandbox', only ? { ...project, test: { ...project.test, include: only } } : project, leftOut]]);
