#!/usr/bin/env node
// Compiles a package's src/*.ts into dist/: JavaScript and declaration files, each with its source map,
// file by file through Oxc (inside rolldown). Oxc only strips types, so this takes a tenth of a second
// where a `tsc` start per package took one to two; declarations come from Oxc's isolated-declarations emitter,
// which needs every export's type written out: each package's tsconfig.build.json turns
// `isolatedDeclarations` on, so `tsc` rejects an export whose type would need inference. Type errors are
// caught by the type check in `npm test` (scripts/typecheck.test.ts), not here.
// Run from a package folder: `node ../../scripts/compile.mjs`; or `compilePackage(dir)` in a process that
// compiles often (`npm run dev`), which spares a Node start and the load of rolldown each time.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedDeclarationSync, transformSync } from 'rolldown/experimental';

const sourceDir = 'src';
const outputDir = 'dist';
// Tests and their helpers sit beside the code but are not part of the package.
const notShipped = /\.(test|test-d|test-helper)\.ts$/;

/**
 * A version-3 source map for `output`, whose sources are given relative to the output's folder and also
 * inlined (`sourcesContent`): packages ship dist/ without src/, so a map must resolve without the file.
 */
function sourceMap(map, source, output, text) {
  return JSON.stringify({
    version: 3,
    file: basename(output),
    sourceRoot: '',
    sources: [relative(dirname(output), source)],
    sourcesContent: [text],
    names: map.names,
    mappings: map.mappings,
  });
}

// Oxc's output imports a helper from @oxc-project/runtime for a few constructs (at es2022: a tagged
// template holding `</script`, which it lowers), and no package depends on that one: its code is written
// into the file instead, on the import's own line so that the source map stays right. A helper not listed
// here fails the compile, naming the file, rather than shipping an import that cannot resolve.
const inlineHelpers = {
  taggedTemplateLiteral:
    'function _taggedTemplateLiteral(strings, raw) { return Object.freeze(Object.defineProperties(strings, { raw: { value: Object.freeze(raw || strings.slice(0)) } })); }',
};

/** `code` with the runtime helpers it imports written inline, and the problems of those that cannot be. */
export function inlineRuntimeHelpers(code, helpersUsed = {}, source = '') {
  const problems = [];
  for (const [name, from] of Object.entries(helpersUsed)) {
    const line = `import _${name} from "${from}";`;
    if (inlineHelpers[name] && code.includes(line)) code = code.replace(line, () => inlineHelpers[name]);
    else problems.push(`${source}: Oxc's output imports ${from}, which no package depends on: write that construct another way, or inline the helper in scripts/compile.mjs`);
  }
  return { code, problems };
}

/** Writes `path` (its place in dist/) and its map into the staging folder, `at`. */
function write(at, path, code, map, source, text) {
  // A script with a shebang is a package `bin`: it must stay executable once dist/ is rebuilt.
  writeFileSync(join(at, path), `${code.endsWith('\n') ? code : `${code}\n`}//# sourceMappingURL=${basename(path)}.map\n`, { mode: code.startsWith('#!') ? 0o755 : 0o644 });
  writeFileSync(join(at, `${path}.map`), sourceMap(map, source, path, text));
}

/**
 * Compiles the package in `dir` (its src/ into dist/). Returns the problems (code frames), none when dist/
 * was replaced; on a problem dist/ stays as it was.
 */
export function compilePackage(dir = process.cwd()) {
  const at = (path) => join(dir, path);
  const sources = readdirSync(at(sourceDir), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !notShipped.test(file));
  // Written into a staging folder beside dist/ (its dist/ inside is ignored by git like any dist/) and swapped
  // in at the end: a test or server reading dist/ while a build runs (npm run dev, parallel tasks) finds the
  // previous output or the new one, never a half-written or missing folder.
  const staging = at(`.compile-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const problems = [];
  for (const file of sources) {
    const source = join(sourceDir, file);
    const output = join(outputDir, file.replace(/\.ts$/, ''));
    const code = readFileSync(at(source), 'utf8');
    const script = transformSync(source, code, {
      sourcemap: true,
      target: 'es2022',
      // As `verbatimModuleSyntax` says: drop only imports marked `type`, keep every other import as written.
      typescript: { onlyRemoveTypeImports: true },
    });
    const declaration = isolatedDeclarationSync(source, code, { sourcemap: true });
    const errors = [...script.errors, ...declaration.errors];
    const inlined = inlineRuntimeHelpers(script.code, script.helpersUsed, source);
    if (errors.length || inlined.problems.length) {
      problems.push(...errors.map((error) => error.codeframe ?? `${source}: ${error.message}`), ...inlined.problems);
      continue;
    }
    mkdirSync(join(staging, dirname(output)), { recursive: true });
    write(staging, `${output}.js`, inlined.code, script.map, source, code);
    write(staging, `${output}.d.ts`, declaration.code, declaration.map, source, code);
  }
  if (problems.length) {
    rmSync(staging, { recursive: true, force: true });
    return problems;
  }
  mkdirSync(join(staging, outputDir), { recursive: true });
  const previous = join(staging, 'previous', outputDir);
  mkdirSync(dirname(previous), { recursive: true });
  if (existsSync(at(outputDir))) renameSync(at(outputDir), previous);
  renameSync(join(staging, outputDir), at(outputDir));
  rmSync(staging, { recursive: true, force: true });
  return [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = compilePackage();
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
}
