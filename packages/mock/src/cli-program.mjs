// What the mock's command line and the repository's `npm start`/`npm run dev` share (the sandbox has the
// same in TypeScript): `--help`/`-h` prints the usage; an unknown flag or a bad value prints one line and
// the usage and exits with 2, never a stack trace.
import { Command, CommanderError, InvalidArgumentError } from 'commander';

/** A command that prints nothing on its own errors: `parseOrExit` prints them, with the usage. */
export function command(name, description) {
  return new Command(name)
    .description(description)
    .helpOption('-h, --help', 'print this help and exit')
    .configureOutput({ outputError: () => {} })
    .exitOverride();
}

/** Prints one line and the usage on stderr and exits with 2. */
export function exitWithUsage(program, message) {
  process.stderr.write(`${message}\n\n${program.helpInformation()}`);
  process.exit(2);
}

/** The parsed options; after `--help` (usage printed) exits with 0, after a mistake with 2. */
export function parseOrExit(program, argv = process.argv.slice(2)) {
  try {
    program.parse(argv, { from: 'user' });
    return program.opts();
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) process.exit(0);
    exitWithUsage(program, error.message.replace(/\s*\n\s*/g, ' ').trim());
  }
}

/** A parser for a whole number from min to max, for Option#argParser. */
export const wholeNumber = (min, max) => (text) => {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new InvalidArgumentError(`It must be a whole number from ${min} to ${max}.`);
  return value;
};

export const portNumber = wholeNumber(0, 65535);
