/** Review before publishing: review requests, reviews and the account's policy (docs/api.md). */
import type { FastifyInstance } from 'fastify';
import { recordEtagOf } from '../../contract/configs';
import type { Reviews } from '../domain/reviews';
import { pagedList } from '../domain/pages';
import { registerEndpoint } from './register-endpoint';

export function registerReviewRoutes(app: FastifyInstance, reviews: Reviews): void {
  registerEndpoint(app, 'requestReview', async ({ principal, params, body }) => {
    const config = await reviews.request(principal, params.id, body);
    return { body: config, etag: recordEtagOf(config) };
  });

  registerEndpoint(app, 'addReview', async ({ principal, params, body }) => ({
    status: 201,
    body: await reviews.add(principal, params.id, body),
  }));

  const pages = pagedList('reviews', 1);
  registerEndpoint(app, 'listReviews', async ({ principal, params, query }) => {
    const page = await reviews.list(principal, params.id, pages.request(query));
    return { body: page.items, nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'getAccountPolicy', async ({ principal }) => ({
    body: await reviews.getPolicy(principal),
  }));

  registerEndpoint(app, 'setAccountPolicy', async ({ principal, body }) => ({
    body: await reviews.setPolicy(principal, body),
  }));
}
