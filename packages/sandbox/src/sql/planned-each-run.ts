/**
 * A statement whose text starts with this comment is planned for its values each time it runs on
 * PostgreSQL (postgres.ts sends it unnamed), never given a generic plan: a prepared statement's generic
 * plan, made on a new database while its tables are empty, is kept as they grow (until autovacuum next
 * analyses them), and for a page of records (store.ts `pagesSql`) that plan reads all of the company's
 * records and sorts them for every page (postgres-plans.test.ts). PGlite reads the comment as a comment.
 */
// Stryker disable next-line StringLiteral: an empty marker makes every statement unnamed (planned each run), not only the pages: the same rows, more planning
export const plannedEachRun = '/* planned each run */ ';
