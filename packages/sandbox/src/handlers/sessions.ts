import { refuse } from '../codes.js';
import type { Current } from '@idv-toolkit/types';
import type { Step } from '../companies.js';
import type { Context, TypedHandlers } from '../context.js';
import { applicantUrl, configOf, createChild, createSession, sessionOf, sessionTree } from '../sessions.js';
import { kybResult, kycResult, statisticalSummary } from '../results.js';

/**
 * A session's steps as the request gives them. The schema leaves a step's type and key optional, and the
 * sandbox stores what it is given (a step without a key overrides no step of the configuration).
 */
const stepsOf = (steps: Current.SessionStep[] | undefined) => steps as Step[] | undefined;

/** A form field of JSON text: the server decoded it (its schema says so) before the handler ran. */
const decoded = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export const sessionHandlers: TypedHandlers = {
  async begin(context) {
    const { body } = context;
    if (body.sessionId !== undefined) {
      const parent = await sessionOf(context, body.sessionId);
      const child = await createChild(context, parent);
      const url = applicantUrl(context, child.id);
      return { json: { id: parent.id, url, additionalSessionId: child.id, additionalSessionUrl: url } };
    }
    const session = await createSession(context, {
      configId: body.configId,
      parentId: body.parentSessionId,
      name: body.name,
      groupId: body.groupId,
      clientUserId: body.clientUserId,
      general: body.general,
      flags: body.flags,
      steps: stepsOf(body.steps),
    });
    if (configOf(context, body.configId)?.additionalInformationRequest) {
      const child = await createChild(context, session);
      const url = applicantUrl(context, child.id);
      return { json: { id: session.id, url, additionalSessionId: child.id, additionalSessionUrl: url } };
    }
    return { json: { id: session.id, url: applicantUrl(context, session.id) } };
  },

  async legacyBegin(context) {
    const { body } = context;
    const session = await createSession(context, { configId: body.config_id, parentId: body.parent_session_id, general: decoded(body.general), flags: decoded(body.flags), steps: stepsOf(decoded(body.steps)) });
    return { json: session.id };
  },

  getResult: async (context) => ({ json: { result: kybResult(await sessionOf(context, context.body.sessionId)) } }),
  legacyGetResult: async (context) => ({ json: kycResult(context, await sessionOf(context, context.body.session_token)) }),

  async deleteSession(context) {
    await deleteTree(context, context.body.sessionId);
    return { json: { result: true } };
  },
  async legacyDelete(context) {
    await deleteTree(context, context.body.session_token ?? context.body.sessionId);
    return { json: true };
  },

  listSessionActivities: async (context) => ({ json: { result: (await sessionOf(context, context.body.sessionId)).activities } }),
  getSessionStatisticalSummary: async (context) => ({ json: { result: statisticalSummary(await sessionOf(context, context.body.sessionId)) } }),

  getSessionConfig(context) {
    const config = context.company.sessionConfigs.find((c) => c.id === context.body.sessionConfigId) ?? refuse(context, 'wrong-parameters');
    const lifetime = Number(config.general?.sessionLifetime ?? 1440);
    return { json: { result: { id: config.id, name: config.name, general: { ...config.general, language: String(config.general?.language ?? 'en'), sessionLifetime: lifetime }, steps: config.steps } } };
  },
};

/** Deletes a session for good, with everything under it: child sessions and attached files. */
async function deleteTree(context: Context, id: unknown) {
  const company = context.company.companyKey;
  for (const session of await sessionTree(context, await sessionOf(context, id))) {
    for (const file of await context.state.files.find(company, 'session', session.id)) await context.state.files.delete(company, file.id);
    await context.state.sessions.delete(company, session.id);
  }
}
