// `npm run dev` and the docs site: a save of a guide, a package README or the site's template is seen
// whichever way it is saved, and rebuilds the guides (issue 18); spec saves rebuild the whole site; builds
// never overlap (both write docs/dist).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../docs/site/pages.mjs';
import { docsRebuilder, warmDocsBuild } from './dev-docs.mjs';
import { copyFiles, writeFiles } from './fixtures/scratch-repository.mjs';
import { watchSite } from './watch-spec.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'idv-dev-docs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Resolves to the next batch `watch` reports after `save()`, or [] if none comes within `waitMs`. */
function nextBatch(waiters: ((files: string[]) => void)[], save: () => void, waitMs = 3_000): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), waitMs);
    waiters.push((files) => {
      clearTimeout(timer);
      resolve(files);
    });
    save();
  });
}

describe('watchSite', () => {
  const root = mkdtempSync(join(tmp, 'site-'));
  const sources = ['README.md', 'docs/callbacks.md', 'packages/client/README.md'];
  const waiters: ((files: string[]) => void)[] = [];
  let watcher: { close(): Promise<void> };
  const file = (path: string) => join(root, path);

  beforeAll(async () => {
    const paths = [...sources, 'docs/site/template.html', 'docs/dist/guides/callbacks.html', 'node_modules/x/README.md', 'packages/client/src/notes.md'];
    writeFiles(root, Object.fromEntries(paths.map((path) => [path, '# x\n'])));
    watcher = await watchSite(root, sources, (files: string[]) => {
      for (const resolve of waiters.splice(0)) resolve(files);
    });
  });
  afterAll(() => watcher?.close());

  it('sees a save in place of a guide, a package README and the root README', async () => {
    for (const path of sources) expect(await nextBatch(waiters, () => writeFileSync(file(path), '# saved\n'))).toEqual([path]);
  });

  it('sees every rename-over save (mv) and every `sed -i` of the same guide', async () => {
    for (let i = 0; i < 3; i++) {
      const saved = await nextBatch(waiters, () => {
        writeFileSync(file('docs/callbacks.md.tmp'), `# mv ${i}\n`);
        renameSync(file('docs/callbacks.md.tmp'), file('docs/callbacks.md'));
      });
      expect(saved, `mv ${i + 1}`).toEqual(['docs/callbacks.md']);
    }
    for (let i = 0; i < 2; i++) {
      expect(await nextBatch(waiters, () => execFileSync('sed', ['-i', `s/.*/# sed ${i}/`, file('README.md')])), `sed ${i + 1}`).toEqual(['README.md']);
    }
  });

  it('sees a new guide, a change to the template, and a deleted guide', async () => {
    expect(await nextBatch(waiters, () => writeFileSync(file('docs/new-guide.md'), '# new\n'))).toEqual(['docs/new-guide.md']);
    expect(await nextBatch(waiters, () => writeFileSync(file('docs/site/template.html'), '<main>{{body}}</main>\n'))).toEqual(['docs/site/template.html']);
    expect(await nextBatch(waiters, () => unlinkSync(file('docs/new-guide.md')))).toEqual(['docs/new-guide.md']);
  });

  it('ignores the built site, node_modules and files no page comes from', async () => {
    const saved = await nextBatch(
      waiters,
      () => {
        writeFileSync(file('docs/dist/guides/callbacks.html'), '<p>built</p>\n');
        writeFileSync(file('node_modules/x/README.md'), '# dependency\n');
        writeFileSync(file('packages/client/src/notes.md'), '# notes\n');
        writeFileSync(file('docs/notes.txt'), 'x\n');
      },
      1_000,
    );
    expect(saved).toEqual([]);
  });
});

describe('docsRebuilder', () => {
  /** A fake build that finishes when told, recording the arguments of each run. */
  function fakeBuilds() {
    const runs: { args: string[]; finish: (error?: Error) => void }[] = [];
    const run = (args: string[]) =>
      new Promise<void>((resolve, reject) => {
        runs.push({ args, finish: (error) => (error ? reject(error) : resolve()) });
      });
    return { runs, run };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

  it('builds the guides only for a guide, everything for the spec', async () => {
    const { runs, run } = fakeBuilds();
    const rebuild = docsRebuilder({ run });
    const guides = rebuild(true);
    await settle();
    runs[0]!.finish();
    expect(await guides).toMatch(/^ {2}docs {5}guides rebuilt \(\d+ ms\)$/);
    const all = rebuild(false);
    await settle();
    runs[1]!.finish();
    expect(await all).toMatch(/^ {2}docs {5}reference and guides rebuilt/);
    expect(runs.map((r) => r.args)).toEqual([['--guides'], []]);
  });

  it("gives the build's CPU seconds when one process did all of it, and none when the process changed", async () => {
    const { runs, run } = fakeBuilds();
    let reading = { pid: 7, seconds: 1.5 };
    const rebuild = docsRebuilder({ run, cpu: () => reading });
    const first = rebuild(true);
    await settle();
    reading = { pid: 7, seconds: 1.75 };
    runs[0]!.finish();
    expect(await first).toMatch(/^ {2}docs {5}guides rebuilt \(\d+ ms; CPU: 0\.25 s\)$/);
    const second = rebuild(true);
    await settle();
    reading = { pid: 8, seconds: 0.3 };
    runs[1]!.finish();
    expect(await second).toMatch(/^ {2}docs {5}guides rebuilt \(\d+ ms\)$/);
  });

  it('runs one build at a time; asks made meanwhile share one more build, the whole site if one needs it', async () => {
    const { runs, run } = fakeBuilds();
    const rebuild = docsRebuilder({ run });
    const first = rebuild(true);
    await settle();
    const second = rebuild(true);
    const third = rebuild(false);
    const fourth = rebuild(true);
    await settle();
    expect(runs).toHaveLength(1);
    runs[0]!.finish();
    await first;
    await settle();
    expect(runs.map((r) => r.args)).toEqual([['--guides'], []]);
    runs[1]!.finish();
    expect(new Set(await Promise.all([second, third, fourth])).size).toBe(1);
    expect(runs).toHaveLength(2);
  });

  it('reports a failed build in one line and keeps building after it', async () => {
    const { runs, run } = fakeBuilds();
    const rebuild = docsRebuilder({ run });
    const failed = rebuild(true);
    await settle();
    runs[0]!.finish(Object.assign(new Error('Command failed'), { stderr: 'docs/callbacks.md: something broke\n    at x' }));
    expect(await failed).toBe('  docs     failed: docs/callbacks.md: something broke');
    const next = rebuild(true);
    await settle();
    runs[1]!.finish();
    expect(await next).toMatch(/guides rebuilt/);
  });
});

describe('warmDocsBuild', () => {
  // A build shaped like docs/build.mjs: flags on its command line, a module of its own beside it, output
  // written where --out says.
  const dir = mkdtempSync(join(tmp, 'warm-'));
  const out = join(dir, 'out.txt');
  writeFiles(dir, {
    'build.mjs': "import { writeFileSync } from 'node:fs';\nimport { parseArgs } from 'node:util';\nimport { word } from './site/words.mjs';\nconst { values } = parseArgs({ options: { out: { type: 'string' }, guides: { type: 'boolean' } } });\nwriteFileSync(values.out, `${word} ${values.guides ? 'guides' : 'all'}`);\n",
    'site/words.mjs': "export const word = 'first';\n",
  });
  const build = warmDocsBuild({ dir });
  afterAll(() => build.close());

  it('runs the build again for each ask, with its flags, in one process', async () => {
    await build.run(['--out', out]);
    expect(readFileSync(out, 'utf8')).toBe('first all');
    const pid = build.pid();
    await build.run(['--out', out, '--guides']);
    expect(readFileSync(out, 'utf8')).toBe('first guides');
    expect(build.pid()).toBe(pid);
  });

  it("uses a changed module of the build's own at the next build", async () => {
    writeFileSync(join(dir, 'site/words.mjs'), "export const word = 'second, a longer word';\n");
    await build.run(['--out', out]);
    expect(readFileSync(out, 'utf8')).toBe('second, a longer word all');
  });

  it('rejects a failed build with its error, and builds again after it', async () => {
    await expect(build.run(['--out', out, '--unknown'])).rejects.toMatchObject({ stderr: expect.stringMatching(/^TypeError \[ERR_PARSE_ARGS_UNKNOWN_OPTION\]: Unknown option '--unknown'/) });
    // As dev reports it: one line.
    const rebuild = docsRebuilder({ run: build.run, extraArgs: ['--unknown'] });
    expect(await rebuild(false)).toBe("  docs     failed: TypeError [ERR_PARSE_ARGS_UNKNOWN_OPTION]: Unknown option '--unknown'");
    await build.run(['--out', out, '--guides']);
    expect(readFileSync(out, 'utf8')).toBe('second, a longer word guides');
  });
});

describe('a guide saved while dev runs', () => {
  // A copy of the site's sources, watched and built as dev does, into a folder of its own.
  const root = mkdtempSync(join(tmp, 'repo-'));
  const out = mkdtempSync(join(tmp, 'out-'));
  const waiters: ((files: string[]) => void)[] = [];
  const rebuilds: Promise<string>[] = [];
  let watcher: { close(): Promise<void> };
  const sources = pages.map((page: { source: string }) => page.source).filter((source: string) => existsSync(join(repo, source)));

  beforeAll(async () => {
    copyFiles(root, [...sources, 'openapi/current/openapi.yaml', 'openapi/legacy/openapi.yaml', 'openapi/sandbox/openapi.yaml']);
    // The build process dev keeps between builds, running docs/build.mjs.
    const build = warmDocsBuild();
    afterAll(() => build.close());
    const rebuild = docsRebuilder({ run: build.run, extraArgs: ['--root', root, '--out', out] });
    // The save is seen when the watch reports it; the rebuild it starts is awaited apart, so that a slow
    // build on a busy machine is not taken for a missed save.
    watcher = await watchSite(root, sources, async (files: string[]) => {
      const rebuilt = rebuild(true);
      rebuilds.push(rebuilt);
      for (const resolve of waiters.splice(0)) resolve(files);
      await rebuilt;
    });
  });
  afterAll(() => watcher?.close());

  it('is in the built guide page once the rebuild reports, after a rename-over save', async () => {
    const guide = join(root, 'docs/callbacks.md');
    const saved = await nextBatch(
      waiters,
      () => {
        writeFileSync(`${guide}.tmp`, `${readFileSync(guide, 'utf8')}\n## A section saved just now\n\nWords of the new section.\n`);
        renameSync(`${guide}.tmp`, guide);
      },
      10_000,
    );
    expect(saved).toEqual(['docs/callbacks.md']);
    expect(await rebuilds.at(-1)).toMatch(/guides rebuilt/);
    const page = readFileSync(join(out, 'guides/callbacks.html'), 'utf8');
    expect(page).toContain('<h2 id="a-section-saved-just-now">A section saved just now</h2>');
    expect(JSON.parse(readFileSync(join(out, 'search-index.json'), 'utf8')).map((entry: { title: string }) => entry.title)).toContain('Callbacks: A section saved just now');
    // Only the guides: the reference pages come from the spec and were not rebuilt for a guide.
    expect(existsSync(join(out, 'current.html'))).toBe(false);
  }, 90_000);
});
