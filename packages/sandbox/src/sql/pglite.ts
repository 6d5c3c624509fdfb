// PGlite: PostgreSQL compiled to WebAssembly, in this process, its data in a directory (or in memory when
// no directory is given). The same SQL as a PostgreSQL server, through the same `Database` surface.
//
// A fresh cluster costs an `initdb` (≈ 8–15 s of WebAssembly on this machine kind under load); loading
// one from a tar of a fresh data directory costs ≈ 2 s. So the first fresh cluster is kept as a template,
// in memory for the process and in the temp directory for the next processes (one per PGlite version and
// user), and every later fresh one (in memory, or a new directory) is loaded from it: the tests open many.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { insideTransaction, type Database } from './database.js';
import { sameResults } from './result-types.js';

type Queryable = Pick<Transaction, 'query' | 'exec'>;

let template: Promise<Blob> | undefined;

function templateFile(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return join(tmpdir(), `idv-sandbox-pglite-${version}-${process.getuid?.() ?? 'user'}.tar`);
}

/** The saved template, when this user wrote it and nobody else can have changed it. */
async function savedTemplate(file: string): Promise<Blob | undefined> {
  try {
    const stat = statSync(file);
    if ((process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o022) !== 0) return undefined;
    return new Blob([await readFile(file)]);
  } catch {
    return undefined;
  }
}

/** A tar of a freshly initialised data directory: saved by an earlier process, or made now and saved. */
function freshTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = templateFile();
    const saved = await savedTemplate(file);
    if (saved) return saved;
    const db = await PGlite.create({ parsers: sameResults.parsers });
    let made: Blob;
    try {
      made = await db.dumpDataDir('none');
    } finally {
      await db.close();
    }
    // Written aside and renamed: another process reads either no template or a whole one.
    const aside = `${file}.${randomUUID()}`;
    try {
      await writeFile(aside, Buffer.from(await made.arrayBuffer()), { mode: 0o600 });
      await rename(aside, file);
    } catch {
      await rm(aside, { force: true });
    }
    return made;
  })();
  // A failed attempt is not kept: the next open tries again.
  template.catch(() => (template = undefined));
  return template;
}

/** Forgets a template that would not load (a different build wrote it): the next open makes a new one. */
async function dropTemplate() {
  template = undefined;
  await rm(templateFile(), { force: true });
}

const isFresh = (dir: string | undefined) => dir === undefined || !existsSync(dir) || readdirSync(dir).length === 0;

/** Runs `text` (several statements when there are no parameters, as a migration has) and returns the last rows. */
async function run<Row>(db: Queryable, text: string, params?: readonly unknown[]): Promise<Row[]> {
  if (params === undefined || params.length === 0) {
    const results = await db.exec(text);
    return (results.at(-1)?.rows ?? []) as Row[];
  }
  return (await db.query<Row>(text, params as unknown[])).rows;
}

/**
 * Opens PGlite with its data in `dir` (created when missing), or in memory when `dir` is undefined.
 * One process at a time may open a directory (PGlite has no locking between processes).
 */
export async function openPglite(dir?: string): Promise<Database> {
  const fresh = isFresh(dir);
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: dir, loadDataDir: fresh ? await freshTemplate() : undefined, parsers: sameResults.parsers });
  } catch (error) {
    if (!fresh) throw error;
    await dropTemplate();
    // The directory was empty or missing: whatever the failed load left in it goes.
    if (dir) await rm(dir, { recursive: true, force: true });
    db = await PGlite.create({ dataDir: dir, loadDataDir: await freshTemplate(), parsers: sameResults.parsers });
  }
  return {
    kind: 'pglite',
    query: (text, params) => run(db, text, params),
    transaction: (work) => db.transaction((tx) => work(insideTransaction('pglite', (text, params) => run(tx, text, params), (statement) => tx.exec(statement)))),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
