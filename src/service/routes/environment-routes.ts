/** `GET/POST /accounts`, `PATCH /accounts/{id}`, `GET/POST /schedules`, `DELETE /schedules/{id}`. */
import type { FastifyInstance } from 'fastify';
import type { Environments } from '../domain/environments';
import type { Promotions } from '../domain/promotions';
import { etagOf } from '../../contract/configs';
import { pagedList } from '../domain/pages';
import { scheduleAnswer, type Schedules } from '../domain/schedules';
import { CREATED_KEY } from '../store/sql/keyset';
import { registerEndpoint } from './register-endpoint';

export interface EnvironmentRoutesDeps {
  readonly environments: Environments;
  readonly schedules: Schedules;
  readonly promotions: Promotions;
}

export function registerEnvironmentRoutes(
  app: FastifyInstance,
  { environments, schedules, promotions }: EnvironmentRoutesDeps,
): void {
  registerEndpoint(app, 'listAccounts', async ({ principal }) => ({
    body: await environments.list(principal),
  }));

  registerEndpoint(app, 'createAccount', async ({ principal, body }) => ({
    status: 201,
    body: await environments.create(principal, body),
  }));

  registerEndpoint(app, 'updateAccount', async ({ principal, params, body }) => ({
    body: await environments.update(principal, params.account_id, body),
  }));

  registerEndpoint(app, 'nameOrganizationOwner', async ({ principal, params }) => ({
    body: await environments.nameOwner(principal, params.user_id),
  }));

  const pages = pagedList('schedules', CREATED_KEY.length);
  registerEndpoint(app, 'listSchedules', async ({ principal, query }) => {
    const page = await schedules.list(
      principal,
      { status: query.status, configId: query.config_id },
      pages.request(query),
    );
    return { body: page.items.map(scheduleAnswer), nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'createSchedule', async ({ principal, body }) => ({
    status: 201,
    body: await schedules.create(principal, body),
  }));

  registerEndpoint(app, 'cancelSchedule', async ({ principal, params }) => ({
    body: await schedules.cancel(principal, params.schedule_id),
  }));

  registerEndpoint(app, 'previewPromotion', async ({ principal, body }) => ({
    body: await promotions.preview(principal, body),
  }));

  registerEndpoint(app, 'createPromotion', async ({ principal, body }) => {
    const { result, revision } = await promotions.create(principal, body);
    return { body: { ...result, revision }, etag: etagOf(result.id, revision) };
  });
}
