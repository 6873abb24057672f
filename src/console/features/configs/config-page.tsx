import { useParams } from 'react-router';
import { usePageTitle } from '../../lib/page-title';

/** `/configs/:id` (and `/configs/live`): placeholder until issue 5 brings the editor. */
export function ConfigPage() {
  const { id = '' } = useParams();
  usePageTitle(id === 'live' ? 'Live config' : `Config ${id}`);
  return (
    <div className="page">
      <h1>{id === 'live' ? 'Live config' : 'Config'}</h1>
      <p>
        The YAML editor for <code>{id}</code> comes next.
      </p>
    </div>
  );
}
