// The docs build process that `npm run dev` keeps between builds (dev-docs.mjs, warmDocsBuild): each message
// runs the build script named on its command line (docs/build.mjs) again with the message's arguments. The
// modules the build imports (its own and the libraries') stay loaded, which is most of a build's start;
// warmDocsBuild starts a new process when one of the docs build's own modules changed.
import { fileURLToPath, pathToFileURL } from 'node:url';

const build = pathToFileURL(process.argv[2]);
let runs = 0;

process.on('message', async ({ id, args }) => {
  // build.mjs reads its flags from the command line.
  process.argv = [process.argv[0], fileURLToPath(build), ...args];
  try {
    await import(`${build.href}?run=${++runs}`);
    process.send({ id });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
