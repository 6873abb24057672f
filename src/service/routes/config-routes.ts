/** `POST /config/edit` and the other config endpoints. */
import type { FastifyInstance } from 'fastify';
import type { RefusalKind } from '../../configs/operations/refusal';
import type { ConfigEditRequest } from '../../contract/config-edit';
import { configOfEtag, etagOf } from '../../contract/configs';
import { permissionForEdit } from '../../contract/endpoints';
import { PROBLEM_CODES, problemTypeUri, type ProblemCode } from '../../contract/problem';
import { configJsonSchema } from '../../configs/config-schema';
import type { ConfigService } from '../domain/config-service';
import { EditRefused, type EditRefusal } from '../domain/edit-refusals';
import { HttpProblem } from '../http-problem';
import { contentEtagOf, registerEndpoint, type EndpointDependencies } from './register-endpoint';

export function registerConfigRoutes(
  app: FastifyInstance,
  deps: EndpointDependencies & { configs: ConfigService },
): void {
  const { configs } = deps;

  registerEndpoint(
    app,
    'editConfig',
    async ({ principal, body, headers }) => {
      const ifMatch = headers['if-match'];
      const expected = ifMatch === undefined ? undefined : (configOfEtag(ifMatch) ?? undefined);
      try {
        const { result, revision } = await configs.edit(
          principal,
          body as ConfigEditRequest,
          expected,
        );
        return { body: { ...result, revision }, etag: etagOf(result.id, revision) };
      } catch (error) {
        throw error instanceof EditRefused ? editRefusalProblem(error.refusal) : error;
      }
    },
    { permission: (body) => permissionForEdit((body as ConfigEditRequest).operations) },
  );

  registerEndpoint(app, 'listConfigs', async ({ principal, query }) => ({
    body: await configs.list(principal, query.kind),
  }));

  registerEndpoint(app, 'getLiveConfig', async ({ principal }) => {
    const config = await configs.getLive(principal);
    return { body: config, etag: etagOf(config.id, config.revision) };
  });

  registerEndpoint(app, 'getConfig', async ({ principal, params }) => {
    const config = await configs.get(principal, params.id);
    return { body: config, etag: etagOf(config.id, config.revision) };
  });

  registerEndpoint(app, 'publishConfig', async ({ principal, params, body }) => {
    const config = await configs.publish(principal, params.id, body.summary);
    return { body: config, etag: etagOf(config.id, config.revision) };
  });

  registerEndpoint(app, 'activateConfig', async ({ principal, params }) => {
    const config = await configs.activate(principal, params.id);
    return { body: config, etag: etagOf(config.id, config.revision) };
  });

  registerEndpoint(app, 'deleteConfig', async ({ principal, params }) => {
    await configs.discard(principal, params.id);
    return { status: 204, body: undefined };
  });

  registerEndpoint(app, 'getConfigHistory', async ({ principal, params }) => ({
    body: await configs.history(principal, params.id),
  }));

  const schema = configJsonSchema as unknown as Record<string, unknown>;
  const schemaEtag = contentEtagOf(schema);
  registerEndpoint(app, 'getConfigSchema', async () => ({ body: schema, etag: schemaEtag }));
}

/** The problem code an operation's refusal is answered with (its own code names it). */
const OPERATION_REFUSAL_CODES: Record<RefusalKind, ProblemCode> = {
  invalid_operation: 'invalid_request',
  conflict: 'conflict',
  not_allowed_in_state: 'conflict',
  not_found: 'unknown_target',
};

/** How each refused edit is answered: the one place that gives edit refusals a status. */
export function editRefusalProblem(refusal: EditRefusal): HttpProblem {
  switch (refusal.kind) {
    case 'operation_refused': {
      const { kind, code, message, requestPath } = refusal.refusal;
      const generic = PROBLEM_CODES[OPERATION_REFUSAL_CODES[kind]];
      return new HttpProblem({
        type: problemTypeUri(code),
        title: generic.title,
        status: generic.status,
        detail: message,
        code,
        errors: [{ path: requestPath, message }],
      });
    }
    case 'target_not_found':
      return HttpProblem.of('not_found', refusal.message);
    case 'target_changed':
      return HttpProblem.of('precondition_failed', refusal.message);
    case 'too_large':
      return HttpProblem.of('config_too_large', refusal.message);
    case 'live_would_be_invalid':
      return HttpProblem.of('invalid_config', refusal.message, { validation: refusal.report });
  }
}
