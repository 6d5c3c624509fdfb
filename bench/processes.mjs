// The servers the sandbox benchmarks measure against, started as child processes the same way.
import { spawn } from 'node:child_process';

/** A bare node:http server answering every request with a fixed JSON body: the upper bound. */
export const bareServer = `
const body = JSON.stringify({ result: '64f0c1d2e3a4b5c6d7e8f901' });
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }); res.end(body); }); })
  .listen(0, '127.0.0.1', function () { console.log('listening http://127.0.0.1:' + this.address().port); });`;

export function startProcess(args) {
  const began = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk) => {
      output += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (!url) return;
      // Once started, the sandbox logs a line per request: drain it without keeping or searching it.
      child.stdout.off('data', read);
      child.stdout.resume();
      resolve({ url, child, startupMs: Number(process.hrtime.bigint() - began) / 1e6 });
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
}
