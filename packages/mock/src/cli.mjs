#!/usr/bin/env node
// `npm run mock`: both Prism mocks on 127.0.0.1 until Ctrl-C or SIGTERM.
import { Option } from 'commander';
import { command, parseOrExit, portNumber } from './cli-program.mjs';
import { defaultPorts, startMocks } from './index.mjs';

const program = command('npm run mock --', 'Prism mocks of both interfaces: every answer a documented example, any company key accepted.')
  .usage('[options]')
  .addHelpText('after', '\nExample:\n  npm run mock -- --current-port 5010 --legacy-port 5011 --verbose');

// Every flag, one entry each with its help text.
const flags = [
  new Option('--host <address>', 'the address to listen on').default('127.0.0.1'),
  new Option('--current-port <number>', 'the port of the current interface (0, or a taken port: any free port)').default(defaultPorts.current).argParser(portNumber),
  new Option('--legacy-port <number>', 'the port of the legacy interface (0, or a taken port: any free port)').default(defaultPorts.legacy).argParser(portNumber),
  new Option('--verbose', "print Prism's log of every request").default(false),
  new Option('--no-standby', 'do not keep a standby Prism per interface (saves about 150 MB each; a crashed Prism then takes a few seconds to come back)'),
];
for (const flag of flags) program.addOption(flag);

const options = parseOrExit(program);
let mocks;
try {
  mocks = await startMocks({
    host: options.host,
    ports: { current: options.currentPort, legacy: options.legacyPort },
    verbose: options.verbose,
    standby: options.standby,
  });
} catch (error) {
  console.error(`The mocks did not start: ${error.message}`);
  process.exit(1);
}
console.log(`Mock of the current interface: ${mocks.urls.current}`);
console.log(`Mock of the legacy interface:  ${mocks.urls.legacy}`);
console.log('Press Ctrl-C to stop.');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await mocks.stop();
    process.exit(0);
  });
}
