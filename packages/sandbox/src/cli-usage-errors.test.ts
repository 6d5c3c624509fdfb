// What the sandbox's command lines (cli.ts, trigger.ts) print for their flags, in this process
// (cli-program.ts; cli.test.ts runs the built command line itself): --help prints the usage and asks for
// nothing else; an unknown flag, a bad number or a missing value is one line (commander's own message,
// folded to one line) and the usage on stderr with exit code 2, never a stack trace; a whole number flag
// takes whole numbers from its minimum to its maximum only.
import { InvalidArgumentError, Option } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { command, exitWithUsage, parseOptions, UsageError, wholeNumber } from './cli-program.js';

afterEach(() => vi.restoreAllMocks());

const program = () =>
  command('npm run example --', 'An example command line.')
    .addOption(new Option('--port <number>', 'the port').default(4020).argParser(wholeNumber(0, 65535)))
    .addOption(new Option('--seed <number>', 'a seed').argParser(wholeNumber(1)))
    .addOption(new Option('--name <text>', 'a name'));

/** Runs `parseOptions` with what it writes to stdout and stderr captured. */
function parse(argv: string[], make = program) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => (out.push(String(text)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => (err.push(String(text)), true));
  try {
    return { options: parseOptions<Record<string, unknown>>(make(), argv), stdout: out.join(''), stderr: err.join('') };
  } catch (error) {
    return { error, stdout: out.join(''), stderr: err.join('') };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('parseOptions', () => {
  it('gives the options, with their defaults', () => {
    expect(parse(['--seed', '3', '--name', 'x'])).toEqual({ options: { port: 4020, seed: 3, name: 'x' }, stdout: '', stderr: '' });
  });

  it.each(['--help', '-h'])('%s prints the usage with each flag and gives no options', (flag) => {
    const { options, error, stdout, stderr } = parse([flag]);
    expect(error).toBeUndefined();
    expect(options).toBeUndefined();
    expect(stdout).toMatch(/^Usage: npm run example -- \[options\]\n\nAn example command line\.\n/);
    expect(stdout).toMatch(/^ {2}-h, --help +print this help and exit$/m);
    expect(stdout).toMatch(/^ {2}--port <number> +the port \(default: 4020\)$/m);
    expect(stderr).toBe('');
  });

  it.each([
    [['--prot', '1'], "error: unknown option '--prot' (Did you mean --port?)"],
    [['--port', '65536'], "error: option '--port <number>' argument '65536' is invalid. It must be a whole number from 0 to 65535."],
    [['--seed', '0'], "error: option '--seed <number>' argument '0' is invalid. It must be a whole number of 1 or more."],
    [['--name'], "error: option '--name <text>' argument missing"],
  ])('%j is a usage error of one line, and nothing printed', (argv, line) => {
    const { error, stdout, stderr } = parse(argv);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(line);
    expect(stdout + stderr).toBe('');
  });

  it('lets an error that is not about the command line through as it is', () => {
    const broken = () =>
      command('broken', 'A parser with a bug.').addOption(
        new Option('--n <number>', 'n').argParser(() => {
          throw new TypeError('a bug in the parser');
        }),
      );
    const { error } = parse(['--n', '1'], broken);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe('a bug in the parser');
  });
});

describe('exitWithUsage', () => {
  it('prints the line, a blank line and the usage on stderr, and exits with 2', () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => (err.push(String(text)), true));
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit);
    const made = program();
    expect(() => exitWithUsage(made, 'error: something is wrong')).toThrow('exit 2');
    expect(exit).toHaveBeenCalledWith(2);
    expect(err.join('')).toBe(`error: something is wrong\n\n${made.helpInformation()}`);
    expect(made.helpInformation()).toMatch(/^Usage: npm run example -- \[options\]/);
  });
});

describe('wholeNumber', () => {
  const port = wholeNumber(0, 65535);
  const atLeastOne = wholeNumber(1);

  it('takes whole numbers from its minimum to its maximum, spaces around them too', () => {
    expect([port('0'), port('65535'), port(' 80 '), port('007')]).toEqual([0, 65535, 80, 7]);
    expect([atLeastOne('1'), atLeastOne(String(Number.MAX_SAFE_INTEGER))]).toEqual([1, Number.MAX_SAFE_INTEGER]);
  });

  it.each([
    [port, '65536', 'It must be a whole number from 0 to 65535.'],
    [port, '-1', 'It must be a whole number from 0 to 65535.'],
    [port, '1.5', 'It must be a whole number from 0 to 65535.'],
    [port, '1e3', 'It must be a whole number from 0 to 65535.'],
    [port, '', 'It must be a whole number from 0 to 65535.'],
    [port, 'x80', 'It must be a whole number from 0 to 65535.'],
    [port, '80x', 'It must be a whole number from 0 to 65535.'],
    [atLeastOne, '0', 'It must be a whole number of 1 or more.'],
    [atLeastOne, '9007199254740993', 'It must be a whole number of 1 or more.'],
  ])('refuses %#: %j', (parser, text, message) => {
    expect(() => parser(text)).toThrow(InvalidArgumentError);
    expect(() => parser(text)).toThrow(message);
  });
});
