// A console page whose operation fails (a bug of the sandbox: every page asks only what its operations
// take) answers 500, and the sandbox's error output names the operation and what it answered
// (console/view.ts, CallError), which is what whoever runs the sandbox reads to find the cause.
import { afterEach, expect, it, vi } from 'vitest';
import { refuse } from '../codes.js';
import { allHandlers } from '../handlers/index.js';
import { keyA, startTestSandbox } from '../sandbox.test-helper.js';
import { consolePage } from './pages.test-helper.js';

afterEach(() => {
  vi.restoreAllMocks();
});

it("names the failed operation and its answer in the sandbox's error output", async () => {
  const printed: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
  const t = await startTestSandbox({ handlers: { ...allHandlers, sandboxListSessions: (context) => refuse(context, 'wrong-parameters') } });
  try {
    const res = await consolePage(t.url, '/console/sessions', keyA);
    expect([res.status, await res.json()]).toEqual([500, { error: 'sandbox internal error' }]);
    expect(printed).toEqual([expect.stringContaining('sandboxListSessions: {"argumentError":"wrong-parameters"}')]);
  } finally {
    await t.close();
  }
});
