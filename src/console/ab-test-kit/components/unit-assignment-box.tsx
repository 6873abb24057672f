/**
 * "What does a unit get?": a unit id in, the variant of each running test and the settings
 * out. Computed here from the live config with the one assignment module the delivery
 * endpoints and the client library use (docs/console.md, "The unit box"), so no client key
 * is needed and the console cannot disagree with what apps get.
 */
import { useId, useState } from 'react';
import { assign, MAX_UNIT_ID_LENGTH, variantOf } from '../../../contract/assignment';
import type { DeliveryView } from '../../../contract/delivery';
import { z } from '../../../contract/zod';
import { Button } from '../../components/button';
import { Form, FormTextField } from '../../components/form';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useLiveDeliveryView } from '../api/get-live-delivery-view';
import { DataTable } from '../../components/data-table';

export const UNIT_ID_EMPTY_MESSAGE = 'Enter a unit id.';
export const UNIT_ID_TOO_LONG_MESSAGE = `Use at most ${MAX_UNIT_ID_LENGTH} characters.`;

// Not trimmed: the delivery endpoints take the id as it is, spaces included.
const unitFormSchema = z.object({
  unit: z
    .string()
    .check(
      z.minLength(1, UNIT_ID_EMPTY_MESSAGE),
      z.maxLength(MAX_UNIT_ID_LENGTH, UNIT_ID_TOO_LONG_MESSAGE),
    ),
});

/** The test a page is about: its answer comes first. */
export interface FocusTest {
  readonly id: string;
  readonly status: string | null;
}

interface UnitAssignmentBoxProps {
  readonly appId: string;
  readonly title?: string;
  readonly headingLevel?: 2 | 3;
  readonly test?: FocusTest;
}

export function UnitAssignmentBox({
  appId,
  title = 'What does a unit get?',
  headingLevel = 2,
  test,
}: UnitAssignmentBoxProps) {
  const titleId = useId();
  const live = useLiveDeliveryView(appId);
  const [unit, setUnit] = useState<string | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section
      className="card unit-box"
      aria-labelledby={titleId}
      aria-busy={live.isPending || undefined}
    >
      <Heading id={titleId}>{title}</Heading>
      <p className="field-hint">
        From the live config, with the assignment apps use: a unit (a user, a device) always gets
        the same variants until a test&apos;s variants change.
      </p>
      <Form
        schema={unitFormSchema}
        defaultValues={{ unit: '' }}
        onSubmit={(values) => setUnit(values.unit)}
        aria-labelledby={titleId}
        className="form unit-form"
      >
        <FormTextField
          name="unit"
          label="Unit id"
          autoComplete="off"
          spellCheck={false}
          after={<Button type="submit">Show</Button>}
        />
      </Form>
      <div aria-live="polite">
        {live.isPending ? (
          <Spinner label="Reading the live config…" />
        ) : live.error !== null ? (
          <div className="alert alert-error" role="alert">
            <p>The live config could not be read. {describeError(live.error)}</p>
            <Button onClick={live.refetch}>Try again</Button>
          </div>
        ) : !live.view ? (
          <p>The live config has no app “{appId}”: no unit gets anything from it.</p>
        ) : (
          unit !== null && <UnitAnswer view={live.view} unit={unit} test={test} />
        )}
      </div>
    </section>
  );
}

function settingText(value: string | number | boolean): string {
  // JSON shows a string "true" apart from the boolean true.
  return JSON.stringify(value);
}

function FocusTestAnswer({
  view,
  unit,
  test,
}: {
  view: DeliveryView;
  unit: string;
  test: FocusTest;
}) {
  if (test.status !== 'running') {
    return (
      <p>
        <strong>{test.id}</strong> is not running: it assigns nobody.
      </p>
    );
  }
  const live = view.ab_tests.find((candidate) => candidate.id === test.id);
  if (!live) {
    return (
      <p>
        <strong>{test.id}</strong> is not running in the live config: it assigns nobody until its
        draft is published.
      </p>
    );
  }
  const variant = variantOf(live, unit);
  return (
    <p>
      In <strong>{test.id}</strong>, <code>{unit}</code> gets the variant{' '}
      <strong>{variant?.id ?? 'none'}</strong>.
    </p>
  );
}

function UnitAnswer({
  view,
  unit,
  test,
}: {
  view: DeliveryView;
  unit: string;
  test: FocusTest | undefined;
}) {
  const assignment = assign(view, unit);
  const settings = Object.entries(assignment.settings);
  return (
    <div className="unit-answer">
      {test && <FocusTestAnswer view={view} unit={unit} test={test} />}
      {assignment.tests.length === 0 ? (
        <p>
          No test of {view.app.name} is running: <code>{unit}</code> gets the app&apos;s settings.
        </p>
      ) : (
        <DataTable
          caption={`Variants of ${unit}`}
          showCaption
          columns={['Running test', 'Variant']}
          rows={assignment.tests}
        >
          {(entry) => (
            <tr key={entry.id}>
              <th scope="row">{entry.id}</th>
              <td>{entry.variant}</td>
            </tr>
          )}
        </DataTable>
      )}
      {settings.length === 0 ? (
        <p>{view.app.name} has no settings.</p>
      ) : (
        <DataTable
          caption={`Settings of ${unit}`}
          showCaption
          columns={['Setting', 'Value']}
          rows={settings}
        >
          {([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>
                <code>{settingText(value)}</code>
              </td>
            </tr>
          )}
        </DataTable>
      )}
    </div>
  );
}
