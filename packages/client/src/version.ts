// The package's version, for the User-Agent header. A constant rather than a read of package.json at run
// time; version.test.ts fails when the two differ (run `npm test` after `changeset version`).
export const version: string = '1.0.0';
