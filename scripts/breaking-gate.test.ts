// The breaking-change gate: which pending changesets it reads, when it lets a breaking change through, and
// the changeset it tells the author to add.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without type declarations
import { AFFECTED_BY_BREAKING_CHANGES, affectedPackages, assertBreakingGate, CHANGESET_DIR, checkBreakingGate, readChangesets } from './breaking-gate.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'idv-breaking-gate-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let dirs = 0;
/** A fresh .changeset-like folder holding the given files (name -> text). */
function folder(files: Record<string, string>): string {
  const dir = join(tmp, `changesets-${++dirs}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
const changeset = (releases: string[], summary = 'Summary.') => ['---', ...releases, '---', '', summary, ''].join('\n');

const change = (api: string, what = 'Path `/x` was removed.') => ({ api, operation: 'POST /x (x)', where: '', rule: 'path-removed', what, why: 'Callers fail.' });

describe('the pending changesets', () => {
  it('are the .md files of the folder but its README, in name order, with their bumps and summary', () => {
    const dir = folder({
      'b-second.md': changeset(['"@idv-toolkit/types": minor'], 'Second.'),
      'a-first.md': changeset(['"@idv-toolkit/client": major', '"@idv-toolkit/openapi": patch'], 'First.\n\nMore.'),
      'README.md': changeset(['"@idv-toolkit/types": major']),
      'readme.MD': changeset(['"@idv-toolkit/types": major']),
      'config.json': '{}',
      'notes.txt': changeset(['"@idv-toolkit/types": major']),
    });
    expect(readChangesets(dir)).toEqual([
      { file: 'a-first.md', releases: { '@idv-toolkit/client': 'major', '@idv-toolkit/openapi': 'patch' }, summary: 'First.\n\nMore.' },
      { file: 'b-second.md', releases: { '@idv-toolkit/types': 'minor' }, summary: 'Second.' },
    ]);
  });

  it('are read with Windows line ends and a byte order mark too', () => {
    const dir = folder({ 'crlf.md': '\uFEFF---\r\n"@idv-toolkit/types": major\r\n---\r\n\r\nSummary.\r\n' });
    expect(readChangesets(dir)).toEqual([{ file: 'crlf.md', releases: { '@idv-toolkit/types': 'major' }, summary: 'Summary.' }]);
  });

  it('count an empty front matter as no bump, and skip a file without front matter', () => {
    const dir = folder({ 'empty.md': '---\n---\n\nNothing to release.\n', 'plain.md': '# Just notes\n' });
    expect(readChangesets(dir)).toEqual([{ file: 'empty.md', releases: {}, summary: 'Nothing to release.' }]);
  });

  it('refuse a front matter that is not a map of package to bump, naming the file', () => {
    expect(() => readChangesets(folder({ 'list.md': '---\n- "@idv-toolkit/types"\n---\n\nSummary.\n' }))).toThrow('.changeset/list.md: the front matter is not a map of package to bump');
    expect(() => readChangesets(folder({ 'word.md': '---\nmajor\n---\n\nSummary.\n' }))).toThrow('.changeset/word.md');
  });

  it('are none when there is no folder', () => {
    expect(readChangesets(join(tmp, 'no-such-folder'))).toEqual([]);
  });

  it('are read from the repository\'s .changeset folder by default', () => {
    expect(CHANGESET_DIR.replaceAll('\\', '/')).toMatch(/\/\.changeset$/);
    expect(readChangesets()).toEqual(readChangesets(CHANGESET_DIR));
  });
});

describe('the gate', () => {
  it('reaches the OpenAPI bundles, the types and the client as soon as there is one breaking change', () => {
    expect(affectedPackages([])).toEqual([]);
    expect(affectedPackages([change('current')])).toEqual(['@idv-toolkit/openapi', '@idv-toolkit/types', '@idv-toolkit/client']);
    expect(AFFECTED_BY_BREAKING_CHANGES).toEqual(['@idv-toolkit/openapi', '@idv-toolkit/types', '@idv-toolkit/client']);
  });

  it('lets a release without breaking changes through, whatever is pending', () => {
    const gate = checkBreakingGate([], { changesetDir: folder({ 'x.md': changeset(['"@idv-toolkit/types": minor']) }) });
    expect(gate).toEqual({ ok: true, affected: [], missing: [], majorChangesets: [], suggestion: null, message: '' });
  });

  it('passes when every affected package has a major changeset, and names each such changeset once', () => {
    const dir = folder({
      'all.md': changeset(['"@idv-toolkit/openapi": major', '"@idv-toolkit/types": major']),
      'client.md': changeset(['"@idv-toolkit/client": major', '"@idv-toolkit/types": major']),
      'other.md': changeset(['"@idv-toolkit/sandbox": major']),
    });
    expect(checkBreakingGate([change('current')], { changesetDir: dir })).toEqual({
      ok: true,
      affected: AFFECTED_BY_BREAKING_CHANGES,
      missing: [],
      majorChangesets: ['all.md', 'client.md'],
      suggestion: null,
      message: '',
    });
  });

  it('fails while one package lacks a major changeset, and says which bumps it found', () => {
    const dir = folder({
      'a.md': changeset(['"@idv-toolkit/openapi": major', '"@idv-toolkit/types": major', '"@idv-toolkit/client": minor']),
      'b.md': changeset(['"@idv-toolkit/client": patch']),
    });
    const gate = checkBreakingGate([change('current')], { changesetDir: dir });
    expect(gate.ok).toBe(false);
    expect(gate.missing).toEqual(['@idv-toolkit/client']);
    expect(gate.majorChangesets).toEqual(['a.md']);
    expect(gate.message.split('\n')[0]).toBe(
      '1 breaking change in current must be released as a major version of @idv-toolkit/openapi, @idv-toolkit/types, @idv-toolkit/client, ' +
        'but no pending changeset bumps @idv-toolkit/client (minor in a.md, patch in b.md) to major.',
    );
  });

  it('gives the changeset to add, for every API with breaking changes, in a name that is free', () => {
    const dir = folder({ 'breaking-current-legacy.md': changeset(['"@idv-toolkit/types": minor']), 'breaking-current-legacy-2.md': 'notes\n' });
    const breaking = [change('current', 'Path `/a` was removed.'), change('legacy'), change('current', 'Path `/b` was removed.')];
    const gate = checkBreakingGate(breaking, { changesetDir: dir });
    expect(gate.suggestion).toEqual({
      file: 'breaking-current-legacy-3.md',
      content: [
        '---',
        '"@idv-toolkit/openapi": major',
        '"@idv-toolkit/types": major',
        '"@idv-toolkit/client": major',
        '---',
        '',
        '- current: POST /x (x): Path `/a` was removed. <say what callers must change>',
        '- legacy: POST /x (x): Path `/x` was removed. <say what callers must change>',
        '- current: POST /x (x): Path `/b` was removed. <say what callers must change>',
        '',
      ].join('\n'),
    });
    expect(gate.message).toBe([
      '3 breaking changes in current, legacy must be released as a major version of @idv-toolkit/openapi, @idv-toolkit/types, @idv-toolkit/client, ' +
        'but no pending changeset bumps @idv-toolkit/openapi (no changeset), @idv-toolkit/types (minor in breaking-current-legacy.md), @idv-toolkit/client (no changeset) to major.',
      'Add the changeset .changeset/breaking-current-legacy-3.md:',
      '',
      gate.suggestion.content,
      '(or run `npx changeset` and choose major for @idv-toolkit/openapi, @idv-toolkit/types, @idv-toolkit/client). Write in it what callers must change.',
    ].join('\n'));
  });

  it('names the suggested changeset with letters, digits and dashes only', () => {
    const gate = checkBreakingGate([change('Current  API_v2.x')], { changesetDir: folder({}) });
    expect(gate.suggestion.file).toBe('breaking-current-api-v2-x.md');
  });

  it('throws its message when it fails, and returns itself when it passes', () => {
    const empty = folder({});
    expect(() => assertBreakingGate([change('current')], { changesetDir: empty })).toThrow(/^1 breaking change in current must be released as a major version/);
    const gate = assertBreakingGate([], { changesetDir: empty });
    expect(gate).toMatchObject({ ok: true, affected: [] });
  });
});
