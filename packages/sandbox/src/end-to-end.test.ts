// What an integrator does first: a receiver built with the client's callback helper, a session finished on
// the applicant page, the verified session-change callback, and the session exported as a PDF.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeDataUri, parseCallbackNodeRequest, type CallbackEvent } from '@idv-toolkit/client';
import { PDFDocument } from 'pdf-lib';
import { afterEach, expect, it } from 'vitest';
import { demoSessionConfigs } from './companies.js';
import { callbackKeyA, keyA, startTestSandbox } from './sandbox.test-helper.js';

let t: Awaited<ReturnType<typeof startTestSandbox>> | undefined;
afterEach(() => t?.close());

it('a session finished on the applicant page reaches the receiver as a verified callback, and exports as a PDF', async () => {
  const events: CallbackEvent[] = [];
  const receiver = createServer(async (req, res) => {
    try {
      events.push(await parseCallbackNodeRequest(req, { callbackApiKey: callbackKeyA }));
      res.writeHead(204).end();
    } catch {
      res.writeHead(401).end();
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/idv/callbacks`;
  t = await startTestSandbox({ config: { companies: [{ companyKey: keyA, callbackUrl, callbackApiKey: callbackKeyA, sessionConfigs: demoSessionConfigs }] } });

  const { id, url } = await t.a.begin({ configId: 'cfg-kyc-standard-01' });
  // As a browser would: load the page, then post its form (with the page's form token).
  const formToken = /name="form_token" value="([^"]+)"/.exec(await (await fetch(url)).text())![1]!;
  await fetch(url, { method: 'POST', body: new URLSearchParams({ result: 'approved', form_token: formToken }) });
  await t.sandbox.dispatcher.idle();
  receiver.close();
  expect(events).toEqual([{ type: 'session-change', sessionId: id, result: 'APPROVED' }]);

  const { result } = await t.a.exportSessionAsPdf({ sessionId: id, exportSession: true, exportScreening: true });
  const { contentType, bytes } = decodeDataUri(result);
  expect(contentType).toBe('application/pdf');
  const pdf = await PDFDocument.load(bytes);
  expect(pdf.getPageCount()).toBeGreaterThanOrEqual(2);
});
