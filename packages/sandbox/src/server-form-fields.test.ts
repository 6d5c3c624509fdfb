// A legacy form's JSON text fields are decoded for the handler, and its other fields reach the handler too
// (a saved configuration named beside a steps field is its base).
import { describe, expect, it } from 'vitest';
import { keyA, sandboxPerTest } from './sandbox.test-helper.js';

const startSandbox = sandboxPerTest();

describe('a legacy begin form', () => {
  it('with steps as JSON text keeps its other fields: the saved configuration is the base', async () => {
    const t = await startSandbox();
    const body = new URLSearchParams({ company_key: keyA, config_id: 'cfg-kyc-standard-01', steps: JSON.stringify([{ type: 'company', key: 'from-form' }]) });
    const answer = await fetch(`${t.url}/external-api/begin/`, { method: 'POST', body });
    expect(answer.status).toBe(200);
    const id = (await answer.json()) as string;
    const steps = (await t.a.getResult({ sessionId: id })).result.stepsResults.map((step) => step.key);
    const configured = (await t.a.getResult({ sessionId: (await t.a.begin({ configId: 'cfg-kyc-standard-01' })).id })).result.stepsResults.map((step) => step.key);
    expect(steps).toEqual([...configured, 'from-form']);
    expect(configured).toContain('documents');
  });
});
