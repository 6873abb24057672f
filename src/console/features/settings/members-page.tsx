/**
 * `/settings/members`: the account's members (email, name, role, how they sign in, last
 * sign-in, which of them own the organization). With members:manage: change a role, end a
 * member's sessions, remove a member, invite (the link shown once) and the pending
 * invitations with Revoke. An organization owner names another member an owner. Others
 * read only.
 */
import { useId, useRef, useState } from 'react';
import { ROLES, type Role } from '../../../contract/auth-status';
import type { Invitation, Member } from '../../../contract/people';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { LoadMore } from '../../components/load-more';
import { ManagedSection } from '../../components/managed-section';
import { Time } from '../../components/time';
import { useAuthStatus } from '../../lib/auth';
import { notify } from '../../lib/notices';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import {
  useEndMemberSessions,
  useInvitations,
  useMembers,
  useRemoveMember,
  useRevokeInvitation,
  useUpdateMember,
} from './api/people';
import { InviteForm } from './members/invite-form';
import { describeMemberFailure, SIGN_IN_WORDS } from './members/member-words';
import { NameOwnerDialog } from './members/name-owner-dialog';
import { SettingsNav } from './settings-nav';

export function MembersPage() {
  usePageTitle('Members');
  const status = useAuthStatus();
  const canManage = status.data !== undefined && offers(status.data, 'members:manage');
  return (
    <div className="page">
      <h1>Settings</h1>
      <SettingsNav status={status.data} />
      <MembersSection
        canManage={canManage}
        ownUserId={status.data?.user_id}
        owner={status.data?.organization_owner === true}
        organizationName={status.data?.organization_name}
      />
      {canManage && <InvitationsSection />}
    </div>
  );
}

function MembersSection({
  canManage,
  ownUserId,
  owner,
  organizationName,
}: {
  canManage: boolean;
  ownUserId: string | undefined;
  /** The caller owns the organization: they may name other members owners. */
  owner: boolean;
  organizationName: string | undefined;
}) {
  const members = useMembers();
  const update = useUpdateMember();
  const endSessions = useEndMemberSessions();
  const remove = useRemoveMember();
  const [removing, setRemoving] = useState<Member | null>(null);
  const [naming, setNaming] = useState<Member | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const changeRole = (member: Member, role: Role) => {
    setFailure(null);
    update.mutate(
      { userId: member.user_id, role },
      {
        onSuccess: () => notify(`${member.email} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`),
        onError: (error) =>
          setFailure(
            `The role of ${member.email} was not changed. ${describeMemberFailure(error)}`,
          ),
      },
    );
  };

  const endSessionsOf = (member: Member) => {
    setFailure(null);
    endSessions.mutate(member.user_id, {
      onSuccess: ({ ended }) =>
        notify(
          ended === 1
            ? `One session of ${member.email} was ended.`
            : `${ended} sessions of ${member.email} were ended.`,
        ),
      onError: (error) =>
        setFailure(
          `The sessions of ${member.email} were not ended. ${describeMemberFailure(error)}`,
        ),
    });
  };

  return (
    <ManagedSection
      title="Members"
      allowed
      query={members}
      notOffered="This server does not list members."
      loading="Loading the members…"
      failure="The members could not be loaded."
      headingRef={heading}
      intro={
        canManage ? null : (
          <p>Only an admin (members:manage) can change roles, remove members or invite.</p>
        )
      }
      dialog={
        <>
          <NameOwnerDialog
            member={naming}
            organizationName={organizationName}
            onClose={() => setNaming(null)}
            returnFocus={heading}
          />
          <ConfirmDialog
            open={removing !== null}
            title={`Remove ${removing?.email ?? ''}?`}
            confirmLabel="Remove member"
            onConfirm={() => {
              if (!removing) return;
              remove.mutate(removing.user_id, {
                onSuccess: () => {
                  notify(`Removed ${removing.email}.`);
                  setRemoving(null);
                },
              });
            }}
            onClose={() => {
              setRemoving(null);
              remove.reset();
            }}
            pending={remove.isPending}
            error={null}
            failure=""
            returnFocus={heading}
          >
            <p>
              They lose access to this account at once: their sessions end and their API keys stop
              working.
            </p>
            <ErrorAlert>
              {remove.isError &&
                `${removing?.email ?? 'The member'} was not removed. ${describeMemberFailure(remove.error)}`}
            </ErrorAlert>
          </ConfirmDialog>
        </>
      }
    >
      {(list) => (
        <>
          <ErrorAlert>{failure}</ErrorAlert>
          <DataTable
            caption="Members"
            columns={[
              'Email',
              'Name',
              'Role',
              'Signs in with',
              'Last sign-in',
              ...(canManage || owner ? ['Actions'] : []),
            ]}
            rows={list}
            empty="No members."
          >
            {(member) => (
              <tr key={member.user_id}>
                <td>
                  {member.email}
                  {member.user_id === ownUserId && ' (you)'}
                  {member.organization_owner && (
                    <>
                      {' '}
                      <span className="owner-badge">Owner</span>
                    </>
                  )}
                </td>
                <td>{member.name ?? ''}</td>
                <td>
                  {canManage ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      disabled={update.isPending}
                      onChange={(event) => changeRole(member, event.target.value as Role)}
                    >
                      {ROLES.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  ) : (
                    member.role
                  )}
                </td>
                <td>{SIGN_IN_WORDS[member.sign_in]}</td>
                <td>
                  <Time value={member.last_sign_in_at} empty="Never" />
                </td>
                {(canManage || owner) && (
                  <td className="row-actions">
                    {owner && !member.organization_owner && (
                      <Button
                        aria-label={`Make ${member.email} an owner…`}
                        onClick={() => setNaming(member)}
                      >
                        Make owner…
                      </Button>
                    )}
                    {canManage && (
                      <>
                        <Button
                          aria-label={`End the sessions of ${member.email}`}
                          onClick={() => endSessionsOf(member)}
                        >
                          End sessions
                        </Button>
                        <Button
                          variant="danger"
                          aria-label={`Remove ${member.email}`}
                          onClick={() => setRemoving(member)}
                        >
                          Remove
                        </Button>
                      </>
                    )}
                  </td>
                )}
              </tr>
            )}
          </DataTable>
          <LoadMore more={members.more} what="members" />
        </>
      )}
    </ManagedSection>
  );
}

function InvitationsSection() {
  const invitations = useInvitations({ enabled: true });
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const listId = useId();

  return (
    <ManagedSection
      title="Invitations"
      allowed
      query={invitations}
      notOffered="This server does not offer invitations."
      loading="Loading the invitations…"
      failure="The invitations could not be loaded."
      headingRef={heading}
      dialog={
        <ConfirmDialog
          open={revoking !== null}
          title={`Revoke the invitation of ${revoking?.email ?? ''}?`}
          confirmLabel="Revoke invitation"
          onConfirm={() => {
            if (!revoking) return;
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                notify(`Revoked the invitation of ${revoking.email}.`);
                setRevoking(null);
              },
            });
          }}
          onClose={() => {
            setRevoking(null);
            revoke.reset();
          }}
          pending={revoke.isPending}
          error={revoke.error}
          failure="The invitation was not revoked."
          returnFocus={heading}
        >
          <p>Its link then says it was revoked.</p>
        </ConfirmDialog>
      }
    >
      {(list) => (
        <>
          <InviteForm />
          <h3 id={listId}>Pending and past invitations</h3>
          <DataTable
            caption="Invitations"
            columns={['Email', 'Role', 'Status', 'Invited', 'Expires', 'Actions']}
            rows={list}
            empty="No invitations."
          >
            {(invitation) => (
              <tr key={invitation.id}>
                <td>{invitation.email}</td>
                <td>{invitation.role}</td>
                <td>{invitation.status}</td>
                <td>
                  <Time value={invitation.created_at} />
                </td>
                <td>
                  <Time value={invitation.expires_at} />
                </td>
                <td>
                  {invitation.status === 'pending' && (
                    <Button
                      variant="danger"
                      aria-label={`Revoke the invitation of ${invitation.email}`}
                      onClick={() => setRevoking(invitation)}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            )}
          </DataTable>
          <LoadMore more={invitations.more} what="invitations" />
        </>
      )}
    </ManagedSection>
  );
}
