/**
 * `/invitations/:token`: what the link invites to (email, role, account, organization);
 * a used, revoked or expired link says so. Accept by setting a password (the server says why
 * one is refused: too short, too common) or by continuing with SSO.
 */
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { InvitationPreview } from '../../../contract/people';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../contract/people';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { TextField } from '../../components/form-fields';
import { Spinner } from '../../components/spinner';
import { Time } from '../../components/time';
import { ApiProblem, apiRequest, describeError } from '../../lib/api-client';
import { useFinishSignIn } from '../../lib/sign-in';
import { defaultBaseUrl } from '../../lib/connection';
import { usePageTitle } from '../../lib/page-title';
import { ssoSignInUrl } from './api/sign-in';
import { peopleEndpoints } from '../../../contract/people-endpoints';

function invitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['invitation-preview', token] as const,
    queryFn: ({ signal }) =>
      apiRequest(peopleEndpoints.previewInvitation, { params: { token }, signal }),
    staleTime: Infinity,
  });
}

const UNUSABLE: Record<Exclude<InvitationPreview['status'], 'pending'>, string> = {
  accepted: 'This invitation was already used.',
  revoked: 'This invitation was revoked.',
  expired: 'This invitation has expired.',
};

export function InvitationPage() {
  usePageTitle('Invitation');
  const { token = '' } = useParams();
  const preview = useQuery(invitationQueryOptions(token));

  return (
    <div className="page" aria-busy={preview.isPending || undefined}>
      <h1>Invitation</h1>
      {preview.isPending ? (
        <Spinner label="Loading the invitation…" />
      ) : preview.isError ? (
        <div role="alert" className="alert alert-error">
          <p>
            {preview.error instanceof ApiProblem && preview.error.status === 404
              ? 'This invitation link does not exist. Check that it was copied whole, or ask for a new one.'
              : `The invitation could not be loaded. ${describeError(preview.error)}`}
          </p>
          <p>
            <Link to="/sign-in">Go to the sign-in page</Link>
          </p>
        </div>
      ) : (
        <InvitationDetails token={token} invitation={preview.data} />
      )}
    </div>
  );
}

function InvitationDetails({
  token,
  invitation,
}: {
  token: string;
  invitation: InvitationPreview;
}) {
  return (
    <>
      <p>
        You are invited to join <strong>{invitation.account_name}</strong> of{' '}
        {invitation.organization_name} as {invitation.role === 'admin' ? 'an' : 'a'}{' '}
        {invitation.role}.
      </p>
      <dl className="details">
        <dt>Email</dt>
        <dd>{invitation.email}</dd>
        <dt>Role</dt>
        <dd>{invitation.role}</dd>
        <dt>Account</dt>
        <dd>{invitation.account_name}</dd>
        <dt>Organization</dt>
        <dd>{invitation.organization_name}</dd>
        <dt>Valid until</dt>
        <dd>
          <Time value={invitation.expires_at} />
        </dd>
      </dl>
      {invitation.status !== 'pending' ? (
        <div role="alert" className="alert alert-warning">
          <p>{UNUSABLE[invitation.status]} Ask whoever invited you for a new link.</p>
          <p>
            <Link to="/sign-in">Go to the sign-in page</Link>
          </p>
        </div>
      ) : (
        <>
          {invitation.password_sign_in && (
            <SetPasswordForm token={token} email={invitation.email} />
          )}
          {invitation.sso && (
            <div className="form-actions">
              <Button
                variant={invitation.password_sign_in ? 'secondary' : 'primary'}
                onClick={() => window.location.assign(ssoSignInUrl({ invitation: token }))}
              >
                Continue with SSO
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}

/** The server's reasons for refusing a password, each in its words. */
function refusalOf(error: unknown): string[] {
  if (error instanceof ApiProblem) {
    if (error.code === 'invitation_unusable') {
      return ['This invitation was used, revoked or has expired. Ask for a new link.'];
    }
    if (error.errors.length > 0) return error.errors.map((field) => field.message);
  }
  return [describeError(error)];
}

function SetPasswordForm({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const finish = useFinishSignIn();
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const accept = useMutation({
    mutationFn: (chosen: string) =>
      apiRequest(peopleEndpoints.acceptInvitation, {
        params: { token },
        body: { password: chosen },
      }),
    onSuccess: (status) => {
      finish(status, { baseUrl: defaultBaseUrl(), apiKey: null });
      void navigate('/', { replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (password.length < PASSWORD_MIN_LENGTH) {
      next.password = `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
    } else if (password.length > PASSWORD_MAX_LENGTH) {
      next.password = `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
    }
    if (confirm !== password) next.confirm = 'The two passwords are not the same.';
    setErrors(next);
    if (next.password === undefined && next.confirm === undefined) accept.mutate(password);
  };

  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby={titleId}>
      <h2 id={titleId}>Set a password</h2>
      <input type="hidden" name="email" autoComplete="username" value={email} />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters; a phrase of a few words is good. Common passwords are refused.`}
        value={password}
        error={errors.password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <TextField
        label="Confirm the password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        error={errors.confirm}
        onChange={(event) => setConfirm(event.target.value)}
      />
      <ErrorAlert>
        {accept.isError && (
          <>
            The password was not set.{' '}
            {refusalOf(accept.error).map((reason) => (
              <span key={reason}>{reason} </span>
            ))}
          </>
        )}
      </ErrorAlert>
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={accept.isPending}>
          Set password and sign in
        </Button>
      </div>
    </form>
  );
}
