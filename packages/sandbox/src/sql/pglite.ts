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
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { insideTransaction, type Database } from './database.js';
import { openPgliteWorker } from './pglite-worker.js';
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
    const { PGlite } = await import('@electric-sql/pglite');
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

export type PgliteOptions = {
  /**
   * Where PGlite runs: in this thread (the default), or in a worker thread (`true`, pglite-worker.ts: the
   * main thread serves requests while a statement runs). The default is this thread because on the two
   * cores measured it gave more: add-blacklist-record at 176 to 182 µs of CPU a request against 229 to 234
   * in the worker (the messages between the threads cost more than the wait they save while wrk holds the
   * other core; docs/benchmarks.md, the fifth session). Keep measuring both when PGlite's costs change.
   */
  worker?: boolean;
};

/**
 * Opens PGlite with its data in `dir` (created when missing), or in memory when `dir` is undefined.
 * One process at a time may open a directory (PGlite has no locking between processes).
 *
 * What a resolved commit guarantees: PGlite starts PostgreSQL with `-F` (fsync off), and its file
 * system writes each page and write-ahead-log block straight to the directory's files (Emscripten's
 * NODEFS: a `write` to the kernel per PostgreSQL write, no fsync). So once a commit resolves, its
 * write-ahead log is in the operating system's page cache: it survives the process being killed (even
 * `kill -9`) and restarted, but not a crash of the operating system or a power cut before the kernel
 * wrote it back (within about 30 s on Linux's defaults). sql/kill-restart.test.ts checks the first.
 */
export async function openPglite(dir?: string, { worker = false }: PgliteOptions = {}): Promise<Database> {
  const open = worker ? (load?: Blob) => openPgliteWorker(dir, load) : (load?: Blob) => openInThread(dir, load);
  const fresh = isFresh(dir);
  try {
    return await open(fresh ? await freshTemplate() : undefined);
  } catch (error) {
    if (!fresh) throw error;
    await dropTemplate();
    // The directory was empty or missing: whatever the failed load left in it goes.
    if (dir) await rm(dir, { recursive: true, force: true });
    return open(await freshTemplate());
  }
}

/** PGlite in this thread: each statement holds the event loop while it runs. */
async function openInThread(dir: string | undefined, load: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db: PGlite = await PGlite.create({ dataDir: dir, loadDataDir: load, parsers: sameResults.parsers });
  return {
    kind: 'pglite',
    query: (text, params) => run(db, text, params),
    transaction: (work) => db.transaction((tx) => work(insideTransaction('pglite', (text, params) => run(tx, text, params), (statement) => tx.exec(statement)))),
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
