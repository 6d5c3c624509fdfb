// The request log's control operations (openapi/sandbox/paths/list-requests.yaml, get-request.yaml).
import { refuse } from '../codes.js';
import type { Handlers } from '../context.js';
import { servicesOf } from '../console/services.js';

export const consoleRequestHandlers: Handlers = {
  async sandboxListRequests(context) {
    const { operation, status, sessionId, text, limit } = context.body;
    const items = await servicesOf(context.company).ring.list(context.company.companyKey, { operation, status, sessionId, text, limit });
    return { json: { result: items.map((item) => item.entry) } };
  },
  async sandboxGetRequest(context) {
    const item = await servicesOf(context.company).ring.get(context.body.requestId);
    if (!item || item.companyKey !== context.company.companyKey) refuse(context, 'not-found');
    return { json: { result: item.entry } };
  },
};
