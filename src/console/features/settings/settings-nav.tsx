import { NavLink } from 'react-router';
import type { AuthStatus } from '../../../contract/auth-status';
import { offers } from '../../lib/permissions';

/** The settings' own pages; Sign-in only for those who may manage members. */
export function SettingsNav({ status }: { status: AuthStatus | undefined }) {
  const pages = [
    { to: '/settings', label: 'Connection and keys' },
    { to: '/settings/members', label: 'Members' },
    ...(offers(status, 'members:manage') ? [{ to: '/settings/sign-in', label: 'Sign-in' }] : []),
    { to: '/settings/sessions', label: 'Your sessions' },
  ];
  return (
    <nav aria-label="Settings" className="sub-nav">
      <ul>
        {pages.map((page) => (
          <li key={page.to}>
            <NavLink to={page.to} end>
              {page.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
