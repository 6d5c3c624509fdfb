// The state of the repository, not the behaviour of the check: the descriptions have no breaking change
// against what was released (openapi/released/), unless pending changesets release it as a major version.
// (How the check finds and words breaking changes is tested on fixtures in check-breaking*.test.ts.)
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { findBreakingChanges, formatReport, listApis, snapshotPath } from './check-breaking.mjs';
// @ts-expect-error -- a plain ESM script without type declarations
import { checkBreakingGate } from './breaking-gate.mjs';

describe('the repository', () => {
  it('has no breaking change against openapi/released/, or major changesets for every one it has', async () => {
    const result = await findBreakingChanges();
    const names = listApis().map((api: { name: string }) => api.name);
    expect(names).toEqual(expect.arrayContaining(['current', 'legacy']));
    for (const name of names) {
      const api = result.apis.find((entry: { name: string }) => entry.name === name);
      expect(api?.status, `${name}: compared with its snapshot, or new since the last release`).toMatch(/^(compared|new)$/);
    }
    expect(existsSync(snapshotPath('current')) && existsSync(snapshotPath('legacy'))).toBe(true);
    const gate = checkBreakingGate(result.breaking);
    expect(gate.ok, `${formatReport(result)}\n\n${gate.message}`).toBe(true);
  });
});
