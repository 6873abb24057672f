import { usePageTitle } from '../../lib/page-title';

/** `/configs`: placeholder until issue 5 brings the config list and the editor. */
export function ConfigsPage() {
  usePageTitle('Configs');
  return (
    <div className="page">
      <h1>Configs</h1>
      <p>The list of configs, drafts and published versions, and the editor come next.</p>
    </div>
  );
}
