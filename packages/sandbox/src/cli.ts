#!/usr/bin/env node
// `npm run sandbox`: the stateful sandbox on one origin until Ctrl-C or SIGTERM.
import { parseArgs } from 'node:util';
import { demoCompanyKey, loadCompanies } from './companies.js';
import { createSandbox } from './server.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '4020' },
    config: { type: 'string' },
    seed: { type: 'string', default: '1' },
    'rate-limit': { type: 'string', default: '600' },
    'block-seconds': { type: 'string', default: '3600' },
  },
});

const number = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} takes a whole number, not ${JSON.stringify(text)}`);
    process.exit(2);
  }
  return value;
};

let companies;
try {
  companies = loadCompanies(values.config);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const sandbox = createSandbox({
  companies,
  seed: number('seed', values.seed!),
  rateLimit: number('rate-limit', values['rate-limit']!),
  blockSeconds: number('block-seconds', values['block-seconds']!),
});
const origin = await sandbox.listen(number('port', values.port!), values.host);
console.log(`Sandbox (current interface, legacy under /external-api/, control API under /sandbox/): ${origin}`);
console.log(`Applicant page: ${origin}/widget/?session_token=<session id>`);
if (!values.config) console.log(`Demo company key: ${demoCompanyKey} (a fake key for the sandbox only)`);
else console.log(`Companies: ${companies.map((c) => c.name).join(', ')} (keys from ${values.config})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await sandbox.close();
    process.exit(0);
  });
}
