/** `GET /auth/status`: who the caller is, from their key. */
import type { AuthStatus } from '../../contract/auth-status';
import type { Principal } from '../store/records';
import type { FastifyInstance } from 'fastify';
import { registerEndpoint } from './register-endpoint';

export function authStatusOf({ key, user, account }: Principal): AuthStatus {
  return {
    idp_organization_id: account.idp_organization_id,
    auth_type: 'api_key',
    email: user.email,
    idp_user_id: user.idp_user_id,
    account_id: account.id,
    user_id: user.id,
    role: user.role,
    ...(key.expires_at ? { expires_at: key.expires_at } : {}),
    api_key_id: key.id,
    api_key_name: key.name,
    api_key_obfuscated_value: key.obfuscated_value,
    account_type: account.account_type,
    permissions: [...key.permissions],
  };
}

export function registerAuthRoutes(app: FastifyInstance): void {
  // The answer is a function of the principal alone, and a store that caches principals
  // (SqliteStore) hands out the same object until the key, user or account changes, so the
  // answer is serialized once per principal: this route is the one clients poll.
  const answers = new WeakMap<Principal, string>();
  registerEndpoint(app, 'getAuthStatus', async ({ principal, reply }) => {
    const known = answers.get(principal);
    if (known !== undefined) return { serializedBody: known };
    const serialized = reply.serialize(authStatusOf(principal));
    // The route's serializer (fast-json-stringify, from the contract) writes strings.
    if (typeof serialized !== 'string') return { body: authStatusOf(principal) };
    answers.set(principal, serialized);
    return { serializedBody: serialized };
  });
}
