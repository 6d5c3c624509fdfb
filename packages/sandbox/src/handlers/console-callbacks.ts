// The console's callback operations (openapi/sandbox/paths/resend-callback.yaml, set-callback-delivery.yaml,
// get-callback-delivery.yaml).
import { refuse } from '../codes.js';
import type { Handlers } from '../context.js';
import { servicesOf } from '../console/services.js';

export const consoleCallbackHandlers: Handlers = {
  async sandboxResendCallback(context) {
    const { dispatcher } = servicesOf(context.company);
    const attempt = (await dispatcher.attempts(context.company.companyKey)).find((a) => a.eventId === context.body.eventId);
    if (!attempt) refuse(context, 'not-found');
    // The logged payload holds `[redacted]` where the key was: the dispatcher puts the real key back.
    const { callbackApiKey: _redacted, ...event } = attempt.payload as Record<string, unknown> & { type: string; sessionId: string };
    const eventId = await dispatcher.enqueue(context.company, event);
    if (eventId === undefined) refuse(context, 'not-found');
    return { json: { result: eventId } };
  },
  async sandboxSetCallbackDelivery(context) {
    await servicesOf(context.company).dispatcher.setPaused(context.company.companyKey, context.body.paused);
    return { json: { result: true } };
  },
  sandboxGetCallbackDelivery: async (context) => ({ json: { result: { paused: await servicesOf(context.company).dispatcher.isPaused(context.company.companyKey) } } }),
};
