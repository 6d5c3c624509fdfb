import { refuse } from '../codes.js';
import type { Handlers } from '../context.js';
import { applicantUrl, configOf, createChild, createSession, sessionOf, sessionTree } from '../sessions.js';
import { kybResult, kycResult, statisticalSummary } from '../results.js';

export const sessionHandlers: Handlers = {
  begin(context) {
    const { body } = context;
    if (body.sessionId !== undefined) {
      const parent = sessionOf(context, body.sessionId);
      const child = createChild(context, parent);
      const url = applicantUrl(context, child.id);
      return { json: { id: parent.id, url, additionalSessionId: child.id, additionalSessionUrl: url } };
    }
    const session = createSession(context, {
      configId: body.configId,
      parentId: body.parentSessionId,
      name: body.name,
      groupId: body.groupId,
      clientUserId: body.clientUserId,
      general: body.general,
      flags: body.flags,
      steps: body.steps,
    });
    if (configOf(context, body.configId)?.additionalInformationRequest) {
      const child = createChild(context, session);
      const url = applicantUrl(context, child.id);
      return { json: { id: session.id, url, additionalSessionId: child.id, additionalSessionUrl: url } };
    }
    return { json: { id: session.id, url: applicantUrl(context, session.id) } };
  },

  legacyBegin(context) {
    const { body } = context;
    const session = createSession(context, { configId: body.config_id, parentId: body.parent_session_id, general: body.general, flags: body.flags, steps: body.steps });
    return { json: session.id };
  },

  getResult: (context) => ({ json: { result: kybResult(sessionOf(context, context.body.sessionId)) } }),
  legacyGetResult: (context) => ({ json: kycResult(context, sessionOf(context, context.body.session_token)) }),

  deleteSession(context) {
    deleteTree(context, context.body.sessionId);
    return { json: { result: true } };
  },
  legacyDelete(context) {
    deleteTree(context, context.body.session_token ?? context.body.sessionId);
    return { json: true };
  },

  listSessionActivities: (context) => ({ json: { result: sessionOf(context, context.body.sessionId).activities } }),
  getSessionStatisticalSummary: (context) => ({ json: { result: statisticalSummary(sessionOf(context, context.body.sessionId)) } }),

  getSessionConfig(context) {
    const config = context.company.sessionConfigs.find((c) => c.id === context.body.sessionConfigId) ?? refuse(context, 'wrong-parameters');
    const lifetime = Number(config.general?.sessionLifetime ?? 1440);
    return { json: { result: { id: config.id, name: config.name, general: { ...config.general, language: String(config.general?.language ?? 'en'), sessionLifetime: lifetime }, steps: config.steps } } };
  },
};

/** Deletes a session for good, with everything under it: child sessions and attached files. */
function deleteTree(context: Parameters<Handlers[string]>[0], id: unknown) {
  const company = context.company.companyKey;
  for (const session of sessionTree(context, sessionOf(context, id))) {
    for (const file of context.state.files.find(company, 'session', session.id)) context.state.files.delete(company, file.id);
    context.state.sessions.delete(company, session.id);
  }
}
