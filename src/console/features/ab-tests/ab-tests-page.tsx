import { usePageTitle } from '../../lib/page-title';

/** `/ab-tests`: placeholder until issue 6 brings the A/B test list and forms. */
export function AbTestsPage() {
  usePageTitle('A/B tests');
  return (
    <div className="page">
      <h1>A/B tests</h1>
      <p>The list of A/B tests and the forms to run them come next.</p>
    </div>
  );
}
