import { Link } from 'react-router';
import { usePageTitle } from '../../lib/page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. Go to the <Link to="/configs">configs</Link>.
      </p>
    </div>
  );
}
