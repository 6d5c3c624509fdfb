// Docs that compile and run: every TypeScript block of every README and guide (doc-snippets/extract.ts says
// which files, and the `<!-- run: ... -->` convention) becomes a module, type-checked strictly by tsc
// against the built packages, and run by Node against the contract run's Prism mocks or an in-process
// sandbox with the demo company, each on a free port of 127.0.0.1. A block may use the names of
// doc-snippets/given.ts without declaring them (`idv`, `companyKey`, `id`, ...); the mock and sandbox URLs
// it names are replaced by the real ones.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, type Sandbox } from '@idv-toolkit/sandbox';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { allSnippets, extractSnippets, type Snippet } from './doc-snippets/extract.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const given = fileURLToPath(new URL('doc-snippets/given.ts', import.meta.url));
const snippets = allSnippets(root);
const fakeCompanyKey = 'ck_test_not_a_real_key_0000';
const sandboxCompanyKey = 'ck_test_sandbox_demo_key_0000';
const fakeCallbackKey = 'cb_test_not_a_real_key_0000';
const nameOf = (snippet: Snippet) => `${snippet.file}:${snippet.line}`;
const moduleOf = (snippet: Snippet) => `${snippet.file.replace(/\W+/g, '-')}-L${snippet.line}`;

/** The names a module declares at its top level (imports, variables, functions, classes, types). */
function declaredNames(code: string): Set<string> {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) names.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
      else if (bindings) for (const element of bindings.elements) names.add(element.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) bind(declaration.name);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.add(statement.name.text);
    } else if (ts.isImportEqualsDeclaration(statement)) names.add(statement.name.text);
  }
  return names;
}

const givenSource = readFileSync(given, 'utf8');
const givenNames = [...declaredNames(givenSource)].filter((name) => new RegExp(`export const (?:\\{[^}]*\\b)?${name}\\b`).test(givenSource));

/** The module written for a block: the given names it needs, then the block as written. */
function moduleText(snippet: Snippet): string {
  const declared = declaredNames(snippet.code);
  const needed = givenNames.filter((name) => !declared.has(name));
  return `import { ${needed.join(', ')} } from './given.js';\n${snippet.code}export {};\n`;
}

/** The block with the documented local URLs replaced by those of this run's servers. */
function forServer(text: string, urls: { current: string; legacy: string; sandbox: string }, mode: Snippet['mode']): string {
  const current = mode === 'sandbox' ? urls.sandbox : urls.current;
  const legacy = mode === 'sandbox' ? urls.sandbox : urls.legacy;
  return text.replaceAll('http://127.0.0.1:4010', current).replaceAll('http://127.0.0.1:4011', legacy).replaceAll('http://127.0.0.1:4020', urls.sandbox);
}

type Run = { status: number | null; output: string };
function run(args: string[], cwd: string, env: Record<string, string>, timeoutMs: number): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, IDV_LOG: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      output += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, output });
    });
  });
}

/** Runs `tasks` with at most `limit` at a time. */
async function pool<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  }));
  return results;
}

let dir = '';
let sandbox: Sandbox | undefined;
const diagnostics = new Map<string, string[]>();
const runs = new Map<string, Run>();
const canary = 'canary-broken';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doc-snippets-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "private": true, "type": "module" }\n');
  copyFileSync(given, join(dir, 'given.ts'));
  for (const snippet of snippets) writeFileSync(join(dir, `${moduleOf(snippet)}.ts`), moduleText(snippet));
  // A block that must not compile: proves that the check sees the files it is given.
  writeFileSync(join(dir, `${canary}.ts`), "import { createClient } from '@idv-toolkit/client';\ncreateClient({ companyKey: 42 });\nexport {};\n");
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'],
        strict: true, noUncheckedIndexedAccess: true, noImplicitOverride: true, noFallthroughCasesInSwitch: true, skipLibCheck: true, outDir: 'out',
      },
      include: ['*.ts'],
    }),
  );

  // The contract run's sandbox knows only fake companies; the examples use the demo company's key.
  sandbox = createSandbox({ rateLimit: 1_000_000 });
  const [check, sandboxUrl] = await Promise.all([
    run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], dir, {}, 120_000),
    sandbox.listen(0, '127.0.0.1'),
  ]);
  const urls = { ...inject('mockUrls'), sandbox: sandboxUrl };
  for (const line of check.output.split('\n')) {
    const at = /^([^(]+)\.ts\((\d+),(\d+)\): (error .*)$/.exec(line.trim());
    if (!at) continue;
    const list = diagnostics.get(at[1]!) ?? [];
    // One line of given names precedes the block: report the README's own line.
    list.push(`line ${Number(at[2]) - 1}: ${at[4]}`);
    diagnostics.set(at[1]!, list);
  }

  // Run the compiled modules with the documented URLs pointed at this run's servers.
  for (const snippet of snippets.filter((s) => s.mode !== 'none')) {
    const file = join(dir, 'out', `${moduleOf(snippet)}.js`);
    writeFileSync(file, forServer(readFileSync(file, 'utf8'), urls, snippet.mode));
  }
  const runnable = snippets.filter((s) => s.mode !== 'none');
  const results = await pool(3, runnable.map((snippet) => () => {
    const sandboxRun = snippet.mode === 'sandbox';
    return run([`out/${moduleOf(snippet)}.js`], dir, {
      IDV_COMPANY_KEY: sandboxRun ? sandboxCompanyKey : fakeCompanyKey,
      IDV_CALLBACK_KEY: fakeCallbackKey,
      DOC_BASE_URL: sandboxRun ? urls.sandbox : urls.current,
      DOC_LEGACY_BASE_URL: sandboxRun ? urls.sandbox : urls.legacy,
    }, 30_000);
  }));
  runnable.forEach((snippet, index) => runs.set(nameOf(snippet), results[index]!));
}, 180_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('documentation examples', () => {
  it('are found in the READMEs and guides, and the type check catches a broken one', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(8);
    expect(snippets.map((s) => s.file)).toEqual(expect.arrayContaining(['README.md', 'packages/client/README.md']));
    expect(diagnostics.get(canary)?.join('\n')).toContain('TS2322');
  });

  it('follow the run convention: a skip names its reason, a bad comment is an error', () => {
    for (const snippet of snippets.filter((s) => s.mode === 'none')) expect(snippet.reason, nameOf(snippet)).toBeTruthy();
    expect(() => extractSnippets('x.md', '<!-- run: none -->\n```ts\nexport {};\n```\n')).toThrow('needs its reason');
    expect(() => extractSnippets('x.md', '<!-- run: mocks -->\n```ts\nexport {};\n```\n')).toThrow('unknown run mode');
    expect(extractSnippets('x.md', 'text\n\n```typescript\nawait fetch("http://127.0.0.1:4020/x");\n```\n')).toEqual([
      { file: 'x.md', line: 3, code: 'await fetch("http://127.0.0.1:4020/x");\n', mode: 'sandbox' },
    ]);
  });

  it.each(snippets.map((s) => [nameOf(s), s] as const))('%s type-checks strictly', (_name, snippet) => {
    expect((diagnostics.get(moduleOf(snippet)) ?? []).join('\n')).toBe('');
  });

  it.each(snippets.filter((s) => s.mode !== 'none').map((s) => [nameOf(s), s.mode, s] as const))('%s runs against the %s', (name) => {
    const result = runs.get(name)!;
    expect(result.status, result.output).toBe(0);
  });
});
