import type { Member } from '../../../../contract/people';
import { ApiProblem, describeError } from '../../../lib/api-client';

export const SIGN_IN_WORDS: Record<Member['sign_in'], string> = {
  password: 'Password',
  sso: 'SSO',
  none: 'API keys only',
};

/** A refused change to a member in words: the last admin stays, above all. */
export function describeMemberFailure(error: unknown): string {
  if (error instanceof ApiProblem && error.code === 'last_admin') {
    return 'The account needs at least one admin: make someone else an admin first.';
  }
  if (
    error instanceof ApiProblem &&
    error.code === 'conflict' &&
    error.endpoint === 'createInvitation'
  ) {
    return 'That person is already a member of this account.';
  }
  return describeError(error);
}

/** Why naming an owner was refused, in words. */
export function describeOwnerFailure(error: unknown): string {
  if (error instanceof ApiProblem && error.status === 403) {
    return 'Only an owner of the organization may name owners.';
  }
  if (error instanceof ApiProblem && error.status === 404) {
    return 'They are no longer a member of this account.';
  }
  return describeError(error);
}
