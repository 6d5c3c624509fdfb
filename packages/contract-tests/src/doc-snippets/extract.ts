// Finds the TypeScript examples (```ts / ```typescript blocks) of every README and guide, and how each is
// run: an HTML comment on the line above the block says against what.
//   <!-- run: mock -->                  against the Prism mocks (the default)
//   <!-- run: sandbox -->               against the sandbox (the default for a block that names :4020)
//   <!-- run: none (why it cannot) -->  type-checked only; the reason is required, so skips stay explicit
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type RunMode = 'mock' | 'sandbox' | 'none';
export type Snippet = { file: string; line: number; code: string; mode: RunMode; reason?: string };

/** The README of the root and of each folder one or two levels down (packages/*), and docs/*.md. */
export function documentationFiles(root: string): string[] {
  const files = ['README.md'];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    if (existsSync(join(root, entry.name, 'README.md'))) files.push(`${entry.name}/README.md`);
    if (entry.name === 'packages') {
      for (const name of readdirSync(join(root, 'packages')).sort()) {
        if (existsSync(join(root, 'packages', name, 'README.md'))) files.push(`packages/${name}/README.md`);
      }
    }
  }
  for (const name of readdirSync(join(root, 'docs')).sort()) if (name.endsWith('.md')) files.push(`docs/${name}`);
  return [...new Set(files)].sort();
}

const fence = /^(\s*)```(ts|typescript)(\s.*)?$/;
const directive = /^<!--\s*run:\s*(\S+?)\s*(?:\((.*)\))?\s*-->$/;

/** The TypeScript blocks of one Markdown text, with their line (1-based, of the opening fence) and run mode. */
export function extractSnippets(file: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    if (j === lines.length) throw new Error(`${file}:${i + 1}: the TypeScript block is never closed`);
    const code = `${body.join('\n')}\n`;
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const comment = above >= 0 ? directive.exec(lines[above]!.trim()) : null;
    let mode: RunMode = code.includes('127.0.0.1:4020') ? 'sandbox' : 'mock';
    let reason: string | undefined;
    if (comment) {
      if (!['mock', 'sandbox', 'none'].includes(comment[1]!)) throw new Error(`${file}:${above + 1}: unknown run mode "${comment[1]}" (mock, sandbox or none)`);
      mode = comment[1] as RunMode;
      reason = comment[2]?.trim();
      if (mode === 'none' && !reason) throw new Error(`${file}:${above + 1}: "run: none" needs its reason in parentheses`);
    } else if (above >= 0 && /^<!--\s*run\b/.test(lines[above]!.trim())) {
      throw new Error(`${file}:${above + 1}: unreadable run comment; write <!-- run: mock|sandbox|none (reason) -->`);
    }
    snippets.push({ file, line: i + 1, code, mode, ...(reason ? { reason } : {}) });
    i = j;
  }
  return snippets;
}

export function allSnippets(root: string): Snippet[] {
  return documentationFiles(root).flatMap((file) => extractSnippets(file, readFileSync(join(root, file), 'utf8')));
}
