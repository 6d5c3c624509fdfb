// Installs the npm dependencies from the lockfile when they are missing or older than the lockfile, so
// that `npm start` and `npm test` work on a fresh clone.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export function ensureInstalled() {
  const installed = 'node_modules/.package-lock.json';
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync('package-lock.json').mtimeMs) return;
  console.log('Installing dependencies (npm ci)...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
