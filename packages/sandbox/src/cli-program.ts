// What every command line of the sandbox shares: `--help`/`-h` prints the usage; an unknown flag, a bad
// value or a missing argument prints one line and the usage and exits with 2, never a stack trace.
import { Command, CommanderError, InvalidArgumentError } from 'commander';

export class UsageError extends Error {}

/** A command that prints nothing on its own errors: `parseOptions` turns them into a UsageError. */
export function command(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .helpOption('-h, --help', 'print this help and exit')
    .configureOutput({ outputError: () => {} })
    .exitOverride();
}

/** The parsed options, or undefined when `--help` was asked for (the usage is printed then). */
export function parseOptions<T>(program: Command, argv: string[]): T | undefined {
  try {
    program.parse(argv, { from: 'user' });
    return program.opts() as T;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return undefined;
    throw new UsageError(error.message.replace(/\s*\n\s*/g, ' ').trim());
  }
}

/** Prints one line and the usage on stderr and exits with 2. */
export function exitWithUsage(program: Command, message: string): never {
  process.stderr.write(`${message}\n\n${program.helpInformation()}`);
  process.exit(2);
}

/** A parser for a whole number from min to max, for Option#argParser. */
export function wholeNumber(min: number, max: number = Number.MAX_SAFE_INTEGER): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `It must be a whole number of ${min} or more.` : `It must be a whole number from ${min} to ${max}.`);
    }
    return value;
  };
}
