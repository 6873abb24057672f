/**
 * `/settings/sessions`: where you are signed in (created, last seen, address, browser, how),
 * this session marked; end one, or sign out everywhere else.
 */
import { useId, useRef, useState } from 'react';
import type { Session } from '../../../contract/people';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { ErrorAlert } from '../../components/error-alert';
import { LoadMore } from '../../components/load-more';
import { ManagedSection } from '../../components/managed-section';
import { Time } from '../../components/time';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { notify } from '../../lib/notices';
import { usePageTitle } from '../../lib/page-title';
import { useEndOtherSessions, useEndSession, useSessions } from './api/people';
import { SettingsNav } from './settings-nav';

const METHOD_WORDS: Record<Session['method'], string> = {
  password: 'Password',
  sso: 'SSO',
  api_key: 'API key',
};

/** "Chrome on Linux" is more than a person needs to recognise a device; the raw string is kept short. */
function browserOf(userAgent: string | null): string {
  if (userAgent === null) return 'Unknown';
  const known = [
    ['Edg/', 'Edge'],
    ['Firefox/', 'Firefox'],
    ['Chrome/', 'Chrome'],
    ['Safari/', 'Safari'],
  ] as const;
  const browser = known.find(([mark]) => userAgent.includes(mark))?.[1];
  const system = ['Windows', 'Mac OS', 'Android', 'iPhone', 'Linux'].find((os) =>
    userAgent.includes(os),
  );
  if (browser === undefined) return userAgent.slice(0, 60);
  return system === undefined ? browser : `${browser} on ${system === 'Mac OS' ? 'macOS' : system}`;
}

export function SessionsPage() {
  usePageTitle('Your sessions');
  const status = useAuthStatus();
  const sessions = useSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const [ending, setEnding] = useState<Session | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const othersId = useId();

  const others = (sessions.data ?? []).filter((session) => !session.current);
  return (
    <div className="page">
      <h1>Settings</h1>
      <SettingsNav status={status.data} />
      <ManagedSection
        title="Your sessions"
        allowed
        query={sessions}
        notOffered="This server does not keep sessions: the console uses an API key."
        loading="Loading your sessions…"
        failure="Your sessions could not be loaded."
        headingRef={heading}
        intro={<p>Everywhere you are signed in. End a session you do not recognise.</p>}
        dialog={
          <ConfirmDialog
            open={ending !== null}
            title="End this session?"
            confirmLabel="End session"
            onConfirm={() => {
              if (!ending) return;
              endSession.mutate(ending.id, {
                onSuccess: () => {
                  setEnding(null);
                  notify('The session was ended.');
                },
              });
            }}
            onClose={() => {
              setEnding(null);
              endSession.reset();
            }}
            pending={endSession.isPending}
            error={endSession.error}
            failure="The session was not ended."
            returnFocus={heading}
          >
            <p>
              Whoever uses it ({ending ? browserOf(ending.user_agent) : ''},{' '}
              {ending?.ip ?? 'an unknown address'}) is signed out at their next request.
            </p>
          </ConfirmDialog>
        }
      >
        {(list) => (
          <>
            <DataTable
              caption="Your sessions"
              columns={['Signed in', 'Last seen', 'Address', 'Browser', 'How', 'Session']}
              rows={list}
              empty="No open sessions."
            >
              {(session) => (
                <tr key={session.id}>
                  <td>
                    <Time value={session.created_at} />
                  </td>
                  <td>
                    <Time value={session.last_seen_at} />
                  </td>
                  <td>{session.ip ?? 'Unknown'}</td>
                  <td>{browserOf(session.user_agent)}</td>
                  <td>{METHOD_WORDS[session.method]}</td>
                  <td>
                    {session.current ? (
                      <strong>This session</strong>
                    ) : (
                      <Button
                        variant="danger"
                        aria-label={`End the session from ${browserOf(session.user_agent)}, ${session.ip ?? 'unknown address'}`}
                        onClick={() => setEnding(session)}
                      >
                        End
                      </Button>
                    )}
                  </td>
                </tr>
              )}
            </DataTable>
            <LoadMore more={sessions.more} what="sessions" />
            <div className="form-actions" id={othersId}>
              <Button
                disabled={others.length === 0 && !sessions.more.hasMore}
                pending={endOthers.isPending}
                onClick={() =>
                  endOthers.mutate(undefined, {
                    onSuccess: ({ ended }) =>
                      notify(
                        ended === 1
                          ? 'One other session was ended.'
                          : `${ended} other sessions were ended.`,
                      ),
                  })
                }
              >
                Sign out everywhere else
              </Button>
            </div>
            <ErrorAlert>
              {endOthers.isError &&
                `The other sessions were not ended. ${describeError(endOthers.error)}`}
            </ErrorAlert>
          </>
        )}
      </ManagedSection>
    </div>
  );
}
