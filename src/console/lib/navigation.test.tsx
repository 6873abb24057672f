import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Link, UNSAFE_createMemoryHistory as createMemoryHistory, useLocation } from 'react-router';
import { GuardedRouter, useNavigationGuard } from './navigation';

afterEach(cleanup);

/** A page that holds every navigation to another path while `guarded`. */
function Page({ guarded }: { guarded: boolean }) {
  const { pathname } = useLocation();
  const guard = useNavigationGuard(
    ({ currentLocation, nextLocation }) =>
      guarded && currentLocation.pathname !== nextLocation.pathname,
  );
  return (
    <>
      <p>At {pathname}</p>
      <Link to="/elsewhere">Elsewhere</Link>
      <p>{guard.state}</p>
      <button type="button" onClick={guard.proceed}>
        Proceed
      </button>
      <button type="button" onClick={guard.reset}>
        Reset
      </button>
    </>
  );
}

function setUp({ guarded = true, entries = ['/here'] } = {}) {
  const history = createMemoryHistory({
    initialEntries: entries,
    initialIndex: entries.length - 1,
    v5Compat: true,
  });
  const view = render(
    <GuardedRouter history={history}>
      <Page guarded={guarded} />
    </GuardedRouter>,
  );
  return { history, user: userEvent.setup(), ...view };
}

describe('GuardedRouter and useNavigationGuard', () => {
  it('follows links while nothing guards', async () => {
    const { user } = setUp({ guarded: false });
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByText('At /elsewhere')).toBeTruthy();
  });

  it('holds a link while guarded: reset stays, proceed goes', async () => {
    const { user, history } = setUp();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(screen.getByText('blocked')).toBeTruthy();
    expect(history.location.pathname).toBe('/here');

    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByText('unblocked')).toBeTruthy();
    expect(screen.getByText('At /here')).toBeTruthy();

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('At /elsewhere')).toBeTruthy();
    expect(history.location.pathname).toBe('/elsewhere');
  });

  it('undoes Back while guarded, and goes back on proceed', async () => {
    const { user, history } = setUp({ entries: ['/before', '/here'] });
    act(() => history.go(-1));
    expect(screen.getByText('blocked')).toBeTruthy();
    expect(history.location.pathname).toBe('/here');
    expect(screen.getByText('At /here')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Proceed' }));
    expect(await screen.findByText('At /before')).toBeTruthy();
    expect(history.location.pathname).toBe('/before');
    expect(screen.getByText('unblocked')).toBeTruthy();
  });
});
