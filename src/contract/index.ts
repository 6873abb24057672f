/** The contract: zod schemas of every request, response and problem, and OpenAPI from them. */
export * from './api-keys';
export * from './auth-status';
export * from './config-document';
export * from './config-edit';
export * from './configs';
export * from './endpoints';
export * from './limits';
export * from './openapi';
export * from './operations';
export * from './problem';
export * from './timestamp';
export * from './validation';
