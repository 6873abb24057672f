import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { editorTextToOperations, parseConfig } from '../../configs';
import { deliveryViewOf } from '../../configs/delivery-view';
import {
  applyEdits,
  configArb,
  editsArb,
  type Data,
} from '../../configs/testing/config-arbitraries';
import {
  diffEditorText,
  handleOperationsRequest,
  OperationsSession,
  reapplyEdit,
  resolveEdit,
} from './operations-handler';

const BASE = `# Apps
apps:
  - id: checkout
    name: Checkout
    platform: web
  - id: ios-app
    name: Shop for iOS
    platform: ios
    settings:
      onboarding: true
`;

describe('editor text -> operations, the saved text parsed once', () => {
  it('gives what editorTextToOperations gives', () => {
    const edits = [
      BASE,
      BASE.replace('# Apps', '# Apps!'),
      BASE.replace('name: Checkout', 'name: Checkout 2'),
      BASE.replace('      onboarding: true\n', ''),
      `${BASE}  - id: new\n    platform: desktop\n`,
      BASE.replace('  - id: ios-app', '  - id: [ios-app'),
      'apps: []\n',
      '',
      'just text',
    ];
    for (const edited of edits) {
      expect(diffEditorText(new OperationsSession(), BASE, edited)).toEqual(
        editorTextToOperations(BASE, edited),
      );
      expect(diffEditorText(new OperationsSession(), edited, BASE)).toEqual(
        editorTextToOperations(edited, BASE),
      );
    }
  });

  it('gives what editorTextToOperations gives over a session of edits and saves', () => {
    // The worker keeps the data of items read for earlier texts: a session of saves (each
    // saved text the next base) must give exactly what reading every text whole gives.
    const textArb = fc.tuple(configArb, fc.boolean()).map(([config, comments]) => {
      const text = stringify(config, { lineWidth: 0 });
      return comments ? text.replace(/^( *)- id:/gm, '$1# item\n$1- id:') : text;
    });
    fc.assert(
      fc.property(
        fc.array(textArb, { minLength: 2, maxLength: 5 }),
        fc.array(editsArb, { minLength: 1, maxLength: 4 }),
        (texts, editLists) => {
          const session = new OperationsSession();
          let base = texts[0] as string;
          for (const [index, text] of texts.entries()) {
            const config = parseConfig(text).document.toJS() as Data | null;
            const edits = editLists[index % editLists.length] ?? [];
            const editedText = config
              ? stringify(applyEdits(config, edits), { lineWidth: 0 })
              : text;
            for (const edited of [text, editedText]) {
              expect(diffEditorText(session, base, edited)).toEqual(
                editorTextToOperations(base, edited),
              );
            }
            base = editedText;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('re-applying an edit on a newer text (412)', () => {
  const edited = BASE.replace('name: Checkout', 'name: Checkout 2');
  const newer = BASE.replace('platform: ios', 'platform: android');

  it('puts the edit on top of the newer text, keeping both changes', () => {
    const result = reapplyEdit(BASE, edited, newer);
    expect(result.status).toBe('applied');
    if (result.status !== 'applied') return;
    expect(result.text).toContain('name: Checkout 2');
    expect(result.text).toContain('platform: android');
    expect(result.text).toContain('# Apps');
  });

  it('says why when the newer text does not take the edit', () => {
    const gone = BASE.replace('  - id: checkout\n    name: Checkout\n    platform: web\n', '');
    const result = reapplyEdit(BASE, edited, gone);
    expect(result.status).toBe('refused');
  });

  it('has nothing to re-apply for a comment-only edit', () => {
    expect(reapplyEdit(BASE, BASE.replace('# Apps', '# All apps'), newer)).toEqual({
      status: 'unchanged',
    });
  });

  it('answers the worker protocol', () => {
    expect(
      handleOperationsRequest(new OperationsSession(), {
        kind: 'diff',
        baseText: BASE,
        editedText: edited,
      }),
    ).toEqual({
      status: 'changed',
      operations: [{ update_app: [{ id: 'checkout', name: 'Checkout 2' }] }],
    });
  });
});

describe('resolving an edit that conflicts with a newer one (409)', () => {
  const CHECKOUT = '  - id: checkout\n    name: Checkout\n    platform: web\n';
  const newer = BASE.replace('platform: ios', 'platform: android');
  const textOf = (result: ReturnType<typeof resolveEdit>) =>
    result.status === 'applied' ? result.text : result.status;

  it('sets each field as chosen, on top of both edits', () => {
    const edited = BASE.replace('platform: ios', 'platform: web').replace('Checkout', 'Till');
    const field = { path: '/apps/1/platform', value: 'web', theirs: false };
    expect(textOf(resolveEdit(BASE, edited, newer, [field]))).toBe(
      BASE.replace('Checkout', 'Till').replace('platform: ios', 'platform: web'),
    );
    const kept = { ...field, value: 'android', theirs: true };
    expect(textOf(resolveEdit(BASE, edited, newer, [kept]))).toBe(
      newer.replace('Checkout', 'Till'),
    );
  });

  it('follows an app the person moved by its id', () => {
    // The person deleted the first app: the iOS app is now the first.
    const edited = BASE.replace(CHECKOUT, '').replace('platform: ios', 'platform: web');
    const kept = { path: '/apps/1/platform', value: 'android', theirs: true };
    expect(textOf(resolveEdit(BASE, edited, newer, [kept]))).toBe(newer.replace(CHECKOUT, ''));
  });

  it("leaves out the person's change to an app the newer edit deleted, when theirs is kept", () => {
    const deleted = BASE.replace(CHECKOUT, '');
    const edited = BASE.replace('name: Checkout', 'name: Till');
    const kept = { path: '/apps/0/name', theirs: true };
    expect(resolveEdit(BASE, edited, deleted, [kept])).toEqual({ status: 'unchanged' });
    // Mine has nowhere to go: refused, in words (the person's text stays in the editor).
    const mine = { path: '/apps/0/name', value: 'Till', theirs: false };
    expect(resolveEdit(BASE, edited, deleted, [mine])).toMatchObject({ status: 'refused' });
  });

  it('removes a field where the chosen side has none', () => {
    const edited = BASE.replace('    settings:\n      onboarding: true\n', '');
    const changed = BASE.replace('onboarding: true', 'onboarding: false');
    const mine = { path: '/apps/1/settings/onboarding', theirs: false };
    expect(textOf(resolveEdit(BASE, edited, changed, [mine]))).not.toContain('onboarding');
  });
});

describe("an app's delivery view, from the live config's text", () => {
  const stamp = { id: 'cfg_live', revision: 3, published_at: '2026-11-22T10:00:00.000Z' };
  const text = `${BASE}ab_tests:
  - id: onboarding-copy
    app: ios-app
    status: running
    variants:
      - id: control
        weight: 40
      - id: short
        weight: 60
        settings:
          onboarding: false
    started_at: "2026-11-20T10:00:00.000Z"
`;

  it('is what the delivery endpoints build (deliveryViewOf) from the same data', () => {
    const session = new OperationsSession();
    const data = session.textData(text);
    if (!data.ok) throw new Error('the text does not parse');
    const view = handleOperationsRequest(session, {
      kind: 'delivery-view',
      text,
      appId: 'ios-app',
      config: stamp,
    });
    expect(view).toEqual(deliveryViewOf(data.data, 'ios-app', stamp));
    expect(view).toMatchObject({
      app: { id: 'ios-app', settings: { onboarding: true } },
      ab_tests: [{ id: 'onboarding-copy', status: 'running' }],
      config: stamp,
    });
  });

  it('is null for an app the config does not have, or a text that does not parse', () => {
    const session = new OperationsSession();
    const ask = (body: string, appId: string) =>
      handleOperationsRequest(session, { kind: 'delivery-view', text: body, appId, config: stamp });
    expect(ask(text, 'android')).toBeNull();
    expect(ask('apps: [\n', 'ios-app')).toBeNull();
  });
});
