// Runs wrk against one operation for a bounded time and reads its requests per second and p99 latency.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const scripts = mkdtempSync(join(tmpdir(), 'idv-wrk-'));

let runs = 0;

/** A wrk Lua script that POSTs JSON; `%n` in the body becomes unique across runs and requests. */
function scriptFor(body) {
  const run = ++runs;
  const file = join(scripts, `${createHash('sha256').update(body).digest('hex').slice(0, 16)}-${run}.lua`);
  const [before, after] = body.split('%n');
  const text = after === undefined ? JSON.stringify(body) : `${JSON.stringify(`${before}${run}-`)} .. n .. ${JSON.stringify(after)}`;
  writeFileSync(
    file,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nlocal n = 0\n` +
      `request = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, ${text})\nend\n` +
      `local shown = false\nresponse = function(status, headers, body)\n  if status ~= 200 and not shown then shown = true; io.write("first error: ", status, " ", body, "\\n") end\nend\n`,
  );
  return file;
}

export async function wrk(url, body, { seconds = 2, connections = 10, threads = 1 } = {}) {
  const { stdout } = await promisify(execFile)('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', scriptFor(body), url]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  if (!rps || !p99) throw new Error(`Could not read wrk's output:\n${stdout}`);
  if (non2xx) throw new Error(`${url} answered ${non2xx} requests with an error status (${/first error: (.*)/.exec(stdout)?.[1]})`);
  return { rps, p99Ms: Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]] };
}
