// Bundles and lints every API of openapi/redocly.yaml in this process, for `npm run dev`: the bundles come
// back only when no API has an error, so a bad save never reaches the types, mocks, sandbox or docs. Each
// problem reads `file:line:col message (rule)`, the file being the one that holds the mistake (for a bad
// $ref: the file with the $ref, not the missing target).
import { bundle, getLineColLocation, lint, loadConfig } from '@redocly/openapi-core';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { keepExampleValidators } from './dev-example-validators.mjs';

const shorten = (text, cwd) => text.replaceAll(`${cwd}/`, '');

/** `openapi/current/components/schemas/Group.yaml:12:14 Example value must conform… (no-invalid-schema-examples)` */
export function describeProblem(problem, cwd = process.cwd()) {
  const where = problem.location?.[0];
  let at = '';
  if (where?.source?.absoluteRef) {
    at = relative(cwd, resolve(where.source.absoluteRef));
    try {
      const { line, col } = getLineColLocation(where).start;
      at += `:${line}:${col}`;
    } catch {
      // A location Redocly cannot place in its file: the file alone still says where to look.
    }
    at += ' ';
  }
  const rule = problem.ruleId && problem.ruleId !== 'bundler' ? ` (${problem.ruleId})` : '';
  return `${at}${shorten(problem.message, cwd)}${rule}`;
}

/** A file Redocly could not read at all (the root document is not YAML): thrown, not reported. */
function describeThrown(error, cwd) {
  const file = error.source?.absoluteRef;
  if (!file) throw error;
  const at = `${relative(cwd, resolve(file))}${error.line ? `:${error.line}:${error.col}` : ''}`;
  return `${at} ${shorten(error.message.split('\n')[0], cwd)}`;
}

/**
 * A checker of the APIs in `configPath`. Each `check()` bundles every API and lints those whose files or
 * lint settings changed since the last check (linting is most of the time; an unchanged API keeps its last
 * findings). `check(changed)`, given the paths of the files that changed, bundles only the APIs made from
 * one of them (or all, when redocly.yaml changed) and keeps the others' last bundles: a save of the
 * current description no longer bundles the legacy and sandbox ones. Resolves to `{ bundles, errors,
 * warnings, checked }`: `bundles` maps each API's name (`current`, …) to its bundled document and is
 * undefined when any API has an error; `errors` and `warnings` are lines from describeProblem, each once;
 * `checked` names the APIs bundled this time. `onBundled(bundles)`, if given, gets the bundles of the APIs
 * bundled this time as soon as they are made, before any lint, when none has a bundle error: `npm run dev`
 * makes their types and has the mocks read them while the lint runs (it serves them only if the check
 * passes). The example rules' validators are kept between checks, by
 * the content of the schemas they check (dev-example-validators.mjs): a lint compiles only the schemas a
 * save changed, about a third of its CPU time.
 */
export function specChecker({ configPath = 'openapi/redocly.yaml', cwd = process.cwd() } = {}) {
  const lintedBy = new Map();

  async function fingerprint(configText, files) {
    const hash = createHash('sha256').update(configText);
    for (const file of [...files].sort()) hash.update(`\0${file}\0`).update(await readFile(file).catch(() => ''));
    return hash.digest('hex');
  }

  // Per API, its last good bundle and the files it was made from, with the settings it was made with.
  const bundledBy = new Map();

  return {
    async check(changed, onBundled) {
      await keepExampleValidators();
      const configText = await readFile(configPath, 'utf8');
      const config = await loadConfig({ configPath });
      const root = resolve(configPath, '..');
      const changedFiles = changed && new Set(changed.map((file) => resolve(cwd, file)));
      const bundles = {};
      const errors = new Set();
      const warnings = new Set();
      const checked = [];
      // Every API is bundled first, then the bundled ones linted: the bundles are wanted before the lint.
      const toLint = [];
      for (const [alias, { root: entry }] of Object.entries(config.resolvedConfig.apis ?? {})) {
        const ref = resolve(root, entry);
        const last = bundledBy.get(alias);
        if (changedFiles && last && last.configText === configText && !last.files.some((file) => changedFiles.has(file))) {
          for (const [severity, line] of lintedBy.get(alias).problems) (severity === 'error' ? errors : warnings).add(line);
          bundles[alias.split('@')[0]] = last.document;
          continue;
        }
        checked.push(alias.split('@')[0]);
        bundledBy.delete(alias);
        const apiConfig = config.forAlias(alias);
        let result;
        try {
          result = await bundle({ ref, config: apiConfig });
        } catch (error) {
          errors.add(describeThrown(error, cwd));
          lintedBy.delete(alias);
          continue;
        }
        toLint.push({ alias, ref, apiConfig, result });
      }
      if (onBundled && checked.length && !errors.size && toLint.every(({ result }) => !result.problems.some((p) => p.severity === 'error'))) {
        onBundled(Object.fromEntries(toLint.map(({ alias, result }) => [alias.split('@')[0], result.bundle.parsed])));
      }
      for (const { alias, ref, apiConfig, result } of toLint) {
        const key = await fingerprint(configText, [ref, ...result.fileDependencies]);
        if (lintedBy.get(alias)?.key !== key) {
          const linted = await lint({ ref, config: apiConfig });
          // A bad $ref is both a bundle problem and a lint one (no-unresolved-refs): said once.
          const linting = new Set(linted.map((p) => describeProblem({ ...p, ruleId: undefined }, cwd)));
          const bundling = result.problems.filter((p) => !linting.has(describeProblem(p, cwd)));
          lintedBy.set(alias, { key, problems: [...bundling, ...linted].map((p) => [p.severity, describeProblem(p, cwd)]) });
        }
        for (const [severity, line] of lintedBy.get(alias).problems) (severity === 'error' ? errors : warnings).add(line);
        bundles[alias.split('@')[0]] = result.bundle.parsed;
        // Kept only when good: an API with an error is bundled again at every check, as the fix may be a new
        // file (a missing $ref target) that none of its files named before.
        if (!lintedBy.get(alias).problems.some(([severity]) => severity === 'error')) {
          bundledBy.set(alias, { configText, files: [ref, ...[...result.fileDependencies].map((file) => resolve(file))], document: result.bundle.parsed });
        }
      }
      // In the order of redocly.yaml, whichever were bundled anew.
      const names = Object.keys(config.resolvedConfig.apis ?? {}).map((alias) => alias.split('@')[0]);
      const ordered = Object.fromEntries(names.filter((name) => name in bundles).map((name) => [name, bundles[name]]));
      return { bundles: errors.size ? undefined : ordered, errors: [...errors], warnings: [...warnings], checked };
    },
  };
}
