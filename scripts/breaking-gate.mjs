// The breaking-change gate: a breaking change in any API may only be released as a major version of
// every package it reaches. Given the breaking changes that check-breaking.mjs found, it reads the
// pending changesets (.changeset/*.md, front matter `"pkg": major|minor|patch`) and fails unless each
// affected package has a `major` one, with a message that names the changeset to add.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const CHANGESET_DIR = fileURLToPath(new URL('../.changeset', import.meta.url));

// Every API is bundled into @idv-toolkit/openapi and generated into the types, which the client re-exports
// (types and client are versioned together: "fixed" in .changeset/config.json).
export const AFFECTED_BY_BREAKING_CHANGES = ['@idv-toolkit/openapi', '@idv-toolkit/types', '@idv-toolkit/client'];

/** The pending changesets: `[{ file, releases: { '@idv-toolkit/types': 'major', ... }, summary }]`. */
export function readChangesets(dir = CHANGESET_DIR) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file.toLowerCase() !== 'readme.md')
    .sort()
    .flatMap((file) => {
      const text = readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
      const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
      if (!match) return [];
      const releases = parse(match[1]) ?? {};
      if (typeof releases !== 'object' || Array.isArray(releases)) throw new Error(`.changeset/${file}: the front matter is not a map of package to bump`);
      return [{ file, releases, summary: match[2].trim() }];
    });
}

/** The packages that the given breaking changes reach (all of them as soon as there is one). */
export function affectedPackages(breaking) {
  return breaking.length > 0 ? [...AFFECTED_BY_BREAKING_CHANGES] : [];
}

/**
 * Checks the gate. Returns `{ ok, affected, missing, majorChangesets, suggestion, message }`: `missing` are
 * the affected packages without a major changeset, `suggestion` the changeset to add (`{ file, content }`),
 * `message` says what is wrong and exactly what to add (empty when ok).
 */
export function checkBreakingGate(breaking, { changesetDir = CHANGESET_DIR } = {}) {
  const changesets = readChangesets(changesetDir);
  const affected = affectedPackages(breaking);
  const majorFor = (pkg) => changesets.filter((changeset) => changeset.releases[pkg] === 'major').map((changeset) => changeset.file);
  const missing = affected.filter((pkg) => majorFor(pkg).length === 0);
  const majorChangesets = [...new Set(affected.flatMap(majorFor))];
  if (missing.length === 0) return { ok: true, affected, missing, majorChangesets, suggestion: null, message: '' };

  const apis = [...new Set(breaking.map((change) => change.api))];
  const file = freeName(changesetDir, `breaking-${apis.join('-').replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}`);
  const content = [
    '---',
    ...missing.map((pkg) => `"${pkg}": major`),
    '---',
    '',
    ...breaking.map((change) => `- ${change.api}: ${change.operation}: ${change.what} <say what callers must change>`),
    '',
  ].join('\n');
  const found = (pkg) => {
    const bumps = changesets.filter((changeset) => changeset.releases[pkg]).map((changeset) => `${changeset.releases[pkg]} in ${changeset.file}`);
    return `${pkg} (${bumps.length ? bumps.join(', ') : 'no changeset'})`;
  };
  const count = breaking.length;
  const message = [
    `${count} breaking change${count === 1 ? '' : 's'} in ${apis.join(', ')} must be released as a major version of ${affected.join(', ')}, ` +
      `but no pending changeset bumps ${missing.map(found).join(', ')} to major.`,
    `Add the changeset .changeset/${file}:`,
    '',
    content,
    `(or run \`npx changeset\` and choose major for ${missing.join(', ')}). Write in it what callers must change.`,
  ].join('\n');
  return { ok: false, affected, missing, majorChangesets, suggestion: { file, content }, message };
}

/** Throws with the gate's message unless it passes: for tests and scripts. */
export function assertBreakingGate(breaking, options) {
  const gate = checkBreakingGate(breaking, options);
  if (!gate.ok) throw new Error(gate.message);
  return gate;
}

function freeName(dir, base) {
  for (let n = 1; ; n++) {
    const file = `${base}${n === 1 ? '' : `-${n}`}.md`;
    if (!existsSync(join(dir, file))) return file;
  }
}
