/**
 * The A/B test steps in the editor: CodeLenses above the tests of the saved text, opening the
 * A/B pages' step dialogs. A step publishes a new version, which becomes live: the page then
 * moves to that version, as after Publish.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { configContentsQueryOptions } from '../../../api/get-config-contents';
import { describeStepDone, type StepDone } from '../../../ab-test-kit/api/run-lifecycle-step';
import { StepDialog } from '../../../ab-test-kit/components/step-dialogs';
import type { EditorLens } from '../../../editor/editor-types';
import { useAuthStatus } from '../../../lib/auth';
import { notify } from '../../../lib/notices';
import { offers } from '../../../lib/permissions';
import { abTestStepLenses, type AbTestStepLens } from './ab-test-lenses';
import type { EditSession } from './edit-session';

export interface AbTestSteps {
  readonly lenses: readonly EditorLens[];
  readonly choose: (lensId: string) => void;
  /** The open step's dialog, if any. */
  readonly dialog: ReactNode;
}

/**
 * Steps act on the config the page shows, as saved: with unsaved edits the text the person
 * sees is not what a step would publish, so none is offered.
 */
export function useAbTestSteps({
  config: shown,
  savedText,
  report,
  dirty,
}: EditSession): AbTestSteps {
  const auth = useAuthStatus();
  const navigate = useNavigate();
  const config = useMemo(
    () => ({ ...shown, yaml: savedText, validation: report }),
    [shown, savedText, report],
  );
  // The same worker read, and cache entry, as the A/B pages'; null: the text does not parse.
  // Not read at all for a key that could run no step.
  const contents = useQuery(
    configContentsQueryOptions(offers(auth.data, 'config:publish') ? config : undefined),
  );
  const [chosen, setChosen] = useState<AbTestStepLens | null>(null);

  const offered = useMemo(
    () => (dirty ? [] : abTestStepLenses(savedText, contents.data ?? null, auth.data)),
    [dirty, savedText, contents.data, auth.data],
  );
  const lenses = useMemo(() => offered.map(({ lens }) => lens), [offered]);

  const choose = (lensId: string) => {
    const target = offered.find(({ lens }) => lens.id === lensId);
    if (target) setChosen(target);
  };

  const showPublished = async (done: StepDone) => {
    notify(describeStepDone(done));
    await navigate(`/configs/${encodeURIComponent(done.result.id)}`);
  };

  const dialog = chosen && contents.data && (
    <StepDialog
      step={chosen.step}
      source={{ config, contents: contents.data }}
      test={chosen.test}
      onClose={() => setChosen(null)}
      onDone={showPublished}
    />
  );
  return { lenses, choose, dialog };
}
