// Plain HTTP for the hostile-input tests: raw sockets and fetch, no client library, so that each test
// sends exactly the bytes of its reproduction.
import { connect } from 'node:net';
import { companiesFrom, demoSessionConfigs } from './companies.js';
import { createSandbox, type SandboxOptions } from './server.js';

export const keyA = 'ck_test_hostile_a_0000';
export const keyB = 'ck_test_hostile_b_0000';
export const adminToken = 'adm_test_hostile_0000';

export async function startSandbox(options: Partial<SandboxOptions> = {}) {
  const companies = companiesFrom({
    companies: [
      { name: 'Company A', companyKey: keyA, sessionConfigs: demoSessionConfigs },
      { name: 'Company B', companyKey: keyB },
    ],
  });
  const sandbox = createSandbox({ companies, adminToken, ...options });
  const url = await sandbox.listen(0, '127.0.0.1');
  return { sandbox, url, close: () => sandbox.close() };
}

/** POSTs a JSON body (an object, or raw text sent as it is) and reads the answer. */
export async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}

/** Sends raw bytes on a new connection and resolves to everything the server wrote until it closed. */
export function raw(url: string, bytes: string, timeoutMs = 5_000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let out = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(out);
    }, timeoutMs);
    socket.on('data', (chunk) => {
      out += chunk.toString('latin1');
      // One answer is enough: stop once a full response with its body is in.
      const head = out.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(out)?.[1];
      if (head >= 0 && length !== undefined && out.length >= head + 4 + Number(length)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(out);
      }
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (out) resolve(out);
      else reject(error);
    });
    socket.write(bytes, 'latin1');
  });
}

/** The status code of a raw HTTP answer. */
export const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

/** A JSON text nested `depth` levels deep: {"a":{"a":...}}. */
export const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
export const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
