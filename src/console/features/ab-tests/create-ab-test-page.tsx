import { useEffect } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { ConfigContents } from '../../../configs';
import type { ConfigSummary } from '../../../contract/configs';
import { AB_TEST_DESCRIPTION_MAX_LENGTH } from '../../../contract/config-document';
import { MAX_SUMMARY_LENGTH } from '../../../contract/config-edit';
import { operations } from '../../../contract/operations';
import { Button } from '../../components/button';
import { Form, FormSelectField, FormTextAreaField, FormTextField } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import { useAbTestEdit } from '../../ab-test-kit/api/edit-ab-tests';
import { useConfigsWithContents, type ConfigWithContents } from '../../api/get-config-contents';
import { RequestProblem } from '../../ab-test-kit/components/request-problem';
import { VariantsFieldset } from '../../ab-test-kit/components/variants-fieldset';
import {
  createAbTestSchema,
  NEW_DRAFT,
  type CreateAbTestValues,
} from '../../ab-test-kit/form/ab-test-forms';
import { fieldMessagesOf } from '../../ab-test-kit/form/server-errors';
import { defaultVariantRows, ID_HINT, variantsOfRows } from '../../ab-test-kit/form/variant-rows';
import type { PageOutcome } from './components/page-outcome';
import { testPath } from './test-path';

/** `/ab-tests/new` (`?config=<draft id>` preselects a draft): a new test in a draft. */
export function CreateAbTestPage() {
  usePageTitle('New A/B test');
  const auth = useAuthStatus();
  const sources = useConfigsWithContents();

  return (
    <div className="page">
      <p>
        <Link to="/ab-tests">All A/B tests</Link>
      </p>
      <h1>New A/B test</h1>
      {!offers(auth.data, 'config:write') ? (
        <p>Your API key cannot create tests: that needs the config:write permission.</p>
      ) : sources.error ? (
        <div className="alert alert-error" role="alert">
          <p>The configs could not be loaded. {describeError(sources.error)}</p>
          <Button onClick={sources.refetch}>Try again</Button>
        </div>
      ) : sources.isPending ? (
        <Spinner label="Loading the configs…" />
      ) : (
        <CreateAbTestForm sources={sources.sources} drafts={sources.drafts} />
      )}
    </div>
  );
}

interface CreateAbTestFormProps {
  sources: readonly ConfigWithContents[];
  /** The drafts to offer, even those whose contents are still loading. */
  drafts: readonly ConfigSummary[];
}

function CreateAbTestForm({ sources, drafts }: CreateAbTestFormProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const edit = useAbTestEdit();
  const live = sources.find((source) => source.config.live);
  const sourceOf = (target: string) =>
    target === NEW_DRAFT ? live : sources.find((source) => source.config.id === target);
  const preselected = params.get('config');

  // The id and app are checked against the chosen config (the form takes the schema of
  // each render, so this one always sees the latest sources).
  const schema = createAbTestSchema(
    (target): ConfigContents | null => sourceOf(target)?.contents ?? null,
  );

  const onSubmit = async (values: CreateAbTestValues) => {
    const newDraft = values.target === NEW_DRAFT;
    const id = values.id.trim();
    const description = values.description.trim();
    let output;
    try {
      output = await edit.mutateAsync({
        request: {
          // A new draft copies the live config as it is when the request arrives.
          ...(newDraft ? {} : { config_id: values.target }),
          operations: [
            operations.createAbTest({
              id,
              app: values.app,
              ...(description ? { description } : {}),
              variants: variantsOfRows(values.variants),
            }),
          ],
          ...(newDraft && values.summary.trim() ? { summary: values.summary.trim() } : {}),
        },
        revision: newDraft ? null : (sourceOf(values.target)?.config.revision ?? null),
      });
    } catch {
      return; // The form shows `edit.error`.
    }
    const { result } = output;
    const label = result.validation.source?.name ?? result.id;
    const outcome: PageOutcome = {
      text: `Created ${id} in the ${result.created ? 'new ' : ''}draft “${label}”. It goes live when you start it or publish the draft.`,
      configId: result.id,
      linkText: 'Open the draft in the editor',
    };
    await navigate(testPath(result.id, id), { state: { outcome } });
  };

  return (
    <Form
      schema={schema}
      defaultValues={{
        target: drafts.some((draft) => draft.id === preselected) ? (preselected ?? '') : NEW_DRAFT,
        id: '',
        app: '',
        description: '',
        variants: defaultVariantRows(),
        summary: '',
      }}
      onSubmit={onSubmit}
      className="form form-wide"
    >
      <CreateAbTestFields
        live={live}
        drafts={drafts}
        sourceOf={sourceOf}
        error={edit.error}
        pending={edit.isPending}
      />
    </Form>
  );
}

interface CreateAbTestFieldsProps {
  live: ConfigWithContents | undefined;
  drafts: readonly ConfigSummary[];
  sourceOf: (target: string) => ConfigWithContents | undefined;
  /** Why the server refused the last attempt. */
  error: unknown;
  pending: boolean;
}

function CreateAbTestFields({ live, drafts, sourceOf, error, pending }: CreateAbTestFieldsProps) {
  const { control, setError } = useFormContext<CreateAbTestValues>();
  const [target, appId, testId] = useWatch({ control, name: ['target', 'app', 'id'] });
  const targetSource = sourceOf(target);
  const apps = targetSource?.contents?.apps ?? [];
  const app = apps.find((candidate) => candidate.id === appId);

  useEffect(() => {
    for (const { field, message } of fieldMessagesOf(error, {
      item: '/operations/0/create_ab_test/0',
      test: null,
    })) {
      if (field !== 'winner') setError(field, { type: 'server', message });
    }
  }, [error, setError]);

  return (
    <>
      <FormSelectField
        name="target"
        label="Create in"
        hint="A test is created in a draft; starting it makes that draft live."
      >
        <option value={NEW_DRAFT}>
          A new draft from the live config{live ? ` (${live.config.label})` : ''}
        </option>
        {drafts.map((draft) => (
          <option key={draft.id} value={draft.id}>
            Draft: {draft.label}
          </option>
        ))}
      </FormSelectField>
      <FormTextField
        name="id"
        label="Test id"
        hint={ID_HINT}
        autoComplete="off"
        spellCheck={false}
      />
      <FormSelectField
        name="app"
        label="App"
        hint={
          targetSource === undefined
            ? 'Loading the apps of this draft…'
            : targetSource.contents === null
              ? 'This draft does not parse as YAML: fix it in the editor first.'
              : apps.length === 0
                ? 'This config has no apps yet: add one in the editor first.'
                : undefined
        }
      >
        <option value="">Choose an app</option>
        {apps.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name ? `${candidate.name} (${candidate.id})` : candidate.id}
          </option>
        ))}
      </FormSelectField>
      <FormTextAreaField
        name="description"
        label="Description"
        hint={`Optional; at most ${AB_TEST_DESCRIPTION_MAX_LENGTH} characters.`}
        rows={3}
      />
      <VariantsFieldset app={app} />
      {target === NEW_DRAFT && (
        <FormTextField
          name="summary"
          label="Draft name"
          hint={`Optional. Empty: “Create A/B test ${testId.trim() || '<id>'}”.`}
          autoComplete="off"
          maxLength={MAX_SUMMARY_LENGTH}
        />
      )}
      {error != null && <RequestProblem failure="The test was not created." error={error} />}
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          Create test
        </Button>
        <Link className="button button-secondary" to="/ab-tests">
          Cancel
        </Link>
      </div>
    </>
  );
}
