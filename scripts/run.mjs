// Small helpers shared by the scripts: run a command with the project's quiet, telemetry-free
// environment, and wait for it.
import { spawn } from 'node:child_process';

export const quietEnv = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_NOTIFICATIONS: 'true',
};

export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env: quietEnv, ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}
