// Small made-up descriptions that use what the real ones do not (yet): text and `+json` bodies, operations
// and answers without a body, files either way, JSON text form fields, errors in allOf branches, callbacks
// without examples.
const json = (schema: object) => ({ 'application/json': { schema } });
const ok = { '200': { description: 'OK', content: json({ type: 'object' }) } };

export const alpha = {
  openapi: '3.1.0',
  info: { title: 'alpha', version: '1.0.0' },
  paths: {
    '/upload/{itemId}': {
      post: {
        operationId: 'upload',
        'x-idempotent': false,
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: {
                  file: { type: 'string', format: 'binary' },
                  options: { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', properties: { colour: { type: 'string' } } } },
                },
              },
            },
          },
        },
        responses: {
          '200': { description: 'The file back', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
          '400': { $ref: '#/components/responses/UploadError' },
        },
      },
    },
    '/read': {
      get: { operationId: 'read', 'x-idempotent': true, responses: { '200': { description: 'Text', content: { 'text/plain': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } } } } },
    },
    '/problem': {
      post: {
        operationId: 'problem',
        'x-idempotent': 'yes',
        requestBody: { content: { 'application/merge-patch+json': { schema: { type: 'object' } } } },
        responses: { '200': { description: 'Nothing' }, '400': { description: 'No body' } },
      },
    },
    '/mixed': {
      post: {
        operationId: 'mixed',
        responses: { '200': { description: 'Text or bytes', content: { 'text/plain': { schema: { type: 'string' } }, 'application/octet-stream': { schema: { type: 'string' } } } }, '400': { description: 'Bad', content: json({ $ref: '#/components/schemas/Plain' }) } },
      },
    },
    '/empty': { post: { operationId: 'empty', responses: { '200': { description: 'No content', content: {} } } } },
  },
  webhooks: {
    'with-example': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/Event' },
              examples: { first: { value: { type: 'event', status: 'open' } }, second: { value: { type: 'event', status: 'closed' } } },
            },
          },
        },
        responses: ok,
      },
    },
    'schema-example': {
      post: {
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { note: {} }, example: { note: 'from the schema' } } } } },
        responses: ok,
      },
    },
  },
  components: {
    responses: { UploadError: { description: 'Bad upload', content: json({ $ref: '#/components/schemas/UploadError' }) } },
    schemas: {
      UploadError: { oneOf: [{ $ref: '#/components/schemas/ArgumentError' }, { allOf: [{ type: 'object', properties: { internalError: { type: 'string' } } }] }] },
      ArgumentError: { type: 'object', properties: { argumentError: { enum: ['wrong-parameters'] }, other: { type: 'string' } } },
      Plain: { type: 'object', properties: { message: { type: 'string' } } },
      Event: {
        type: 'object',
        required: ['type', 'status'],
        properties: {
          type: { const: 'event' },
          status: { $ref: '#/components/schemas/Status' },
          count: { type: ['integer', 'null'] },
        },
      },
      Status: { type: 'string', enum: ['open', 'closed'] },
    },
  },
};
export const beta = { openapi: '3.1.0', info: { title: 'beta', version: '1.0.0' }, paths: { '/ping': { post: { operationId: 'ping', 'x-idempotent': true, responses: ok } } } };
