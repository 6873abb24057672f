/** Sessions in the API tests: a cookie from a key, and the headers the console sends with it. */
import { expect } from 'vitest';
import { CONSOLE_REQUEST_HEADER } from '../../contract/request-headers';
import { expectSuccess, ok, send, type CallInput } from './api';
import type { TestService } from './test-service';
import type { EndpointName } from '../../contract/endpoints';

/** The `name=value` of a response's Set-Cookie, as a browser sends it back. */
export function cookieOf(setCookie: string | string[] | undefined): string {
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  expect(header, 'a Set-Cookie header').toBeDefined();
  return (header as string).split(';')[0] as string;
}

/** A console session made from `key` (POST /auth/key-session); its cookie. */
export async function sessionFromKey(service: TestService, key: string): Promise<string> {
  const response = await send(service, key, 'startKeySession');
  expect(response.statusCode, response.body).toBe(200);
  return cookieOf(response.headers['set-cookie']);
}

/** What the console sends with every request in a session. */
export function consoleHeaders(cookie: string): Record<string, string> {
  return {
    cookie,
    [CONSOLE_REQUEST_HEADER.name]: CONSOLE_REQUEST_HEADER.value,
    'sec-fetch-site': 'same-origin',
  };
}

/** A request in a session, as the console makes it. */
export function sendInSession(
  service: TestService,
  cookie: string,
  name: EndpointName,
  input: CallInput = {},
) {
  return send(service, undefined, name, {
    ...input,
    headers: { ...consoleHeaders(cookie), ...input.headers },
  });
}

/**
 * A person invited by the service's admin key (as `role`, into the account its request acts
 * on) who accepts with a password: their session's cookie.
 */
export async function invitedPersonInSession(
  service: TestService,
  email: string,
  role: 'admin' | 'editor' | 'viewer' = 'editor',
): Promise<string> {
  const created = await ok(service, service.adminKey, 'createInvitation', {
    payload: { email, role },
  });
  const response = await send(service, undefined, 'acceptInvitation', {
    params: { token: created.link.split('/').pop() as string },
    payload: { password: 'correct horse battery staple' },
    headers: {
      [CONSOLE_REQUEST_HEADER.name]: CONSOLE_REQUEST_HEADER.value,
      'sec-fetch-site': 'same-origin',
    },
  });
  expectSuccess('acceptInvitation', response);
  return cookieOf(response.headers['set-cookie']);
}
