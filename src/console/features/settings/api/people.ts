/**
 * Members, invitations, the caller's own sessions and the organization's sign-in settings:
 * the reads (lists page by page) and the changes, each invalidating what it changed.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../contract/auth-status';
import {
  organizationSettingsUpdateSchema,
  type OrganizationSettingsUpdate,
} from '../../../../contract/people';
import { apiRequest } from '../../../lib/api-client';
import { useListPages } from '../../../lib/list-pages';
import { queryKeysOf } from '../../../lib/resource-queries';
import { peopleEndpoints } from '../../../../contract/people-endpoints';
import { environmentEndpoints } from '../../../../contract/environment-endpoints';

export const membersKeys = queryKeysOf('members');
export const invitationsKeys = queryKeysOf('invitations');
export const sessionsKeys = queryKeysOf('sessions');
export const organizationSettingsKeys = queryKeysOf('organization-settings');

export function useMembers() {
  return useListPages(peopleEndpoints.listMembers, { key: membersKeys.pages(), optional: true });
}

export function useInvitations({ enabled }: { enabled: boolean }) {
  return useListPages(peopleEndpoints.listInvitations, {
    key: invitationsKeys.pages(),
    optional: true,
    enabled,
  });
}

export function useSessions() {
  return useListPages(peopleEndpoints.listSessions, { key: sessionsKeys.pages(), optional: true });
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      apiRequest(peopleEndpoints.updateMember, { params: { user_id: userId }, body: { role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKeys.all }),
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest(peopleEndpoints.removeMember, { params: { user_id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKeys.all }),
  });
}

/** Names a member an owner of the organization; the list then shows them as one, and an admin. */
export function useNameOrganizationOwner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest(environmentEndpoints.nameOrganizationOwner, { params: { user_id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKeys.all }),
  });
}

export function useEndMemberSessions() {
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest(peopleEndpoints.endMemberSessions, { params: { user_id: userId } }),
  });
}

export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { email: string; role: Role }) =>
      apiRequest(peopleEndpoints.createInvitation, { body: input }),
    // The answer holds the one-time link: the form resets the mutation once it has it, and
    // with gcTime 0 the cache lets go of it at once.
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKeys.all }),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(peopleEndpoints.revokeInvitation, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsKeys.all }),
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(peopleEndpoints.endSession, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKeys.all }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(peopleEndpoints.endOtherSessions),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsKeys.all }),
  });
}

export function organizationSettingsQueryOptions() {
  return queryOptions({
    queryKey: organizationSettingsKeys.detail('current'),
    queryFn: ({ signal }) => apiRequest(peopleEndpoints.getOrganizationSettings, { signal }),
  });
}

export function useOrganizationSettings({ enabled }: { enabled: boolean }) {
  return useQuery({ ...organizationSettingsQueryOptions(), enabled });
}

export function useSetOrganizationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    // The contract's own schema checks the body before it leaves.
    mutationFn: (settings: OrganizationSettingsUpdate) =>
      apiRequest(peopleEndpoints.setOrganizationSettings, {
        body: organizationSettingsUpdateSchema.parse(settings),
      }),
    onSuccess: (saved) =>
      queryClient.setQueryData(organizationSettingsQueryOptions().queryKey, saved),
  });
}
