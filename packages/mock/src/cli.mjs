#!/usr/bin/env node
// `npm run mock`: both Prism mocks on 127.0.0.1 until Ctrl-C or SIGTERM.
import { parseArgs } from 'node:util';
import { defaultPorts, startMocks } from './index.mjs';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    'current-port': { type: 'string', default: String(defaultPorts.current) },
    'legacy-port': { type: 'string', default: String(defaultPorts.legacy) },
    verbose: { type: 'boolean', default: false },
  },
});

const { urls, stop } = await startMocks({
  host: values.host,
  ports: { current: Number(values['current-port']), legacy: Number(values['legacy-port']) },
  verbose: values.verbose,
});
console.log(`Mock of the current interface: ${urls.current}`);
console.log(`Mock of the legacy interface:  ${urls.legacy}`);
console.log('Press Ctrl-C to stop.');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await stop();
    process.exit(0);
  });
}
