// The watcher of `npm run dev` sees every way a file gets saved, every time (issue 16: after the first
// rename-over save of a file, later saves of it were never seen).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFiles } from './fixtures/scratch-repository.mjs';
import { watchSpec } from './watch-spec.mjs';

describe('watchSpec', () => {
  const root = mkdtempSync(join(tmpdir(), 'idv-watch-'));
  const batches: string[][] = [];
  const bursts: { firstEventAt: number; calledAt: number }[] = [];
  let waiters: ((files: string[]) => void)[] = [];
  let watcher: { close(): Promise<void> };

  beforeAll(async () => {
    writeFiles(root, { 'current/components/schemas/Group.yaml': 'type: object\n', 'current/components/schemas/User.yaml': 'type: object\n', 'dist/current.json': '{}\n' });
    watcher = await watchSpec(root, (files: string[], burst: { firstEventAt: number }) => {
      batches.push(files);
      bursts.push({ ...burst, calledAt: performance.now() });
      for (const resolve of waiters.splice(0)) resolve(files);
    });
  });
  afterAll(async () => {
    await watcher?.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** The files of the next batch the watcher reports after `save()`, or [] if none comes in time. */
  function reported(save: () => void, waitMs = 3_000): Promise<string[]> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve([]), waitMs);
      waiters.push((files) => {
        clearTimeout(timer);
        resolve(files);
      });
      save();
    });
  }
  const file = (name: string) => join(root, 'current/components/schemas', name);
  const rel = (name: string) => `current/components/schemas/${name}`;

  it('sees a save in place', async () => {
    expect(await reported(() => writeFileSync(file('Group.yaml'), 'type: object\ndescription: a\n'))).toEqual([rel('Group.yaml')]);
  });

  it('sees every rename-over save of the same file (mv), not only the first', async () => {
    for (let i = 0; i < 5; i++) {
      const saved = await reported(() => {
        writeFileSync(file('Group.yaml.tmp'), `type: object\ndescription: mv ${i}\n`);
        renameSync(file('Group.yaml.tmp'), file('Group.yaml'));
      });
      expect(saved, `save ${i + 1}`).toEqual([rel('Group.yaml')]);
    }
  });

  it('sees every `sed -i` of the same file', async () => {
    for (let i = 0; i < 3; i++) {
      const saved = await reported(() => execFileSync('sed', ['-i', `s/description: .*/description: sed ${i}/`, file('Group.yaml')]));
      expect(saved, `sed ${i + 1}`).toEqual([rel('Group.yaml')]);
    }
  });

  it("sees an editor's safe save (the original moved to a backup, the new text written, the backup removed), twice", async () => {
    for (let i = 0; i < 2; i++) {
      const saved = await reported(() => {
        renameSync(file('User.yaml'), file('User.yaml~'));
        writeFileSync(file('User.yaml'), `type: object\ndescription: safe ${i}\n`);
        unlinkSync(file('User.yaml~'));
      });
      expect(saved, `safe save ${i + 1}`).toEqual([rel('User.yaml')]);
    }
  });

  it('sees a new file, its later saves, and its deletion', async () => {
    expect(await reported(() => writeFileSync(file('Extra.yaml'), 'type: string\n'))).toEqual([rel('Extra.yaml')]);
    expect(await reported(() => writeFileSync(file('Extra.yaml'), 'type: integer\n'))).toEqual([rel('Extra.yaml')]);
    expect(await reported(() => unlinkSync(file('Extra.yaml')))).toEqual([rel('Extra.yaml')]);
  });

  it('sees a file in a new folder', async () => {
    const saved = await reported(() => {
      mkdirSync(join(root, 'current/paths'));
      writeFileSync(join(root, 'current/paths/new-operation.yaml'), 'post: {}\n');
    });
    expect(saved).toEqual(['current/paths/new-operation.yaml']);
  });

  it('reports a burst of saves once, each file once', async () => {
    const before = batches.length;
    const saved = await reported(() => {
      writeFileSync(file('Group.yaml'), 'type: object\n');
      writeFileSync(file('User.yaml'), 'type: object\n');
      writeFileSync(file('Group.yaml'), 'type: object\ndescription: b\n');
    });
    expect(saved).toEqual([rel('Group.yaml'), rel('User.yaml')]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(batches.length).toBe(before + 1);
  });

  it("gives each burst's first change time (dev times its steps from the save), after the save began and before the call", async () => {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      times.push(performance.now());
      await reported(() => writeFileSync(file('Group.yaml'), `type: object\ndescription: timed ${i}\n`));
    }
    const [first, second] = bursts.slice(-2);
    expect(first!.firstEventAt).toBeGreaterThanOrEqual(times[0]!);
    expect(first!.firstEventAt).toBeLessThanOrEqual(first!.calledAt);
    // A burst's time is its own, not one left from the burst before.
    expect(second!.firstEventAt).toBeGreaterThanOrEqual(times[1]!);
    expect(second!.firstEventAt).toBeLessThanOrEqual(second!.calledAt);
  });

  it('ignores what is not a source: dist/, other extensions', async () => {
    const saved = await reported(() => {
      writeFileSync(join(root, 'dist/current.yaml'), '{}\n');
      writeFileSync(file('notes.txt'), 'x\n');
    }, 1_000);
    expect(saved).toEqual([]);
  });
});
