import project from '../packages/sandbox/vitest.config';
import { scopeConfig } from './vitest.scope';

// Left out of mutation runs (docs/testing.md says why for each): tests that run the sandbox in a child
// process, which runs dist/ and never a mutant; measurements of memory, descriptors and event-loop time,
// which take minutes for each mutant they reach and assert figures rather than behaviour (the rules they
// rest on are pinned by quick tests); and the browser tests, which start chromium.
export default scopeConfig([
  [
    'packages/sandbox',
    project,
    ['src/cli.test.ts', 'src/request-log.test.ts', 'src/callback-bounds.test.ts', 'src/memory.test.ts', 'src/event-loop.test.ts', 'src/**/*.browser.test.ts'],
  ],
]);
