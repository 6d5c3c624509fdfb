// What the console's page tests share: asking for a page as a signed-in viewer, and a sandbox whose
// first company delivers its callbacks to a receiver of the test's own.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { demoSessionConfigs } from '../companies.js';
import { callbackKeyA, keyA, keyB, startTestSandbox } from '../sandbox.test-helper.js';

/** A console page as `key`'s viewer gets it; `live` asks for the part the page's script swaps in. */
export const consolePage = (origin: string, path: string, key: string, live = false) =>
  fetch(`${origin}${path}`, { headers: { cookie: `idv_console=${encodeURIComponent(key)}`, ...(live ? { 'x-console-live': '1' } : {}) } });

/**
 * A sandbox whose Company A sends its callbacks to a receiver answering with `receive`, and a Company B
 * with no callback URL and no paid services; `close` stops both.
 */
export async function startWithReceiver(receive: (req: IncomingMessage, res: ServerResponse) => void, options: Omit<NonNullable<Parameters<typeof startTestSandbox>[0]>, 'config'> = {}) {
  const receiver = createServer(receive);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/cb`;
  const t = await startTestSandbox({
    ...options,
    config: {
      companies: [
        { name: 'Company A', companyKey: keyA, callbackApiKey: callbackKeyA, callbackUrl, sessionConfigs: demoSessionConfigs },
        { name: 'Company B', companyKey: keyB, screeningPaid: false, trustedDatabase: false, registries: [] },
      ],
    },
  });
  return {
    t,
    callbackUrl,
    async close() {
      await t.close();
      receiver.close();
    },
  };
}
