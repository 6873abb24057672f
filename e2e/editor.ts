/**
 * What the config editor's journeys share: the service's config API (to make a fresh draft
 * per test and to check what was saved), the Monaco editor "Config YAML" as a person uses
 * it (click, select all, type), and what Monaco shows (its model, markers and selection),
 * read through `window.__provisioningMonaco` (docs/console.md: read-only use).
 */
import type * as MonacoModule from 'monaco-editor';
import { parseDocument, isMap, isSeq, type Document } from 'yaml';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Seed, SeedKey } from './seed';

// ---------------------------------------------------------------------------------------
// The API, as the tests' own client

export interface Issue {
  code: string;
  severity?: 'error' | 'warning';
  message: string;
  path: string;
  line: number;
  column: number;
  length: number;
}

export interface ConfigRecord {
  id: string;
  kind: 'draft' | 'published';
  label: string;
  revision: number;
  live: boolean;
  base_config_id: string | null;
  yaml: string;
  validation: {
    valid: boolean;
    error_count: number;
    warning_count: number;
    issues: Issue[];
    yaml?: string;
  };
}

export interface AppItem {
  id: string;
  name: string;
  platform: string;
  [key: string]: unknown;
}

/** The config endpoints of the run's service, called with one of the seeded keys. */
export class ConfigApi {
  constructor(
    private readonly baseURL: string,
    private readonly key: SeedKey,
  ) {}

  static of(seed: Seed, key: SeedKey = seed.keys.configsAdmin): ConfigApi {
    return new ConfigApi(seed.baseURL, key);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseURL}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.key.secret}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as T;
  }

  live(): Promise<ConfigRecord> {
    return this.call('GET', '/configs/live');
  }

  get(id: string): Promise<ConfigRecord> {
    return this.call('GET', `/configs/${id}`);
  }

  /** The account's configs, newest first. */
  list(): Promise<Omit<ConfigRecord, 'yaml' | 'validation'>[]> {
    return this.call('GET', '/configs');
  }

  /** `POST /config/edit` as given; the edit result. */
  edit(body: {
    operations: Record<string, unknown>[];
    config_id?: string;
    summary?: string;
  }): Promise<{
    id: string;
    kind: string;
    created: boolean;
    validation: ConfigRecord['validation'];
  }> {
    return this.call('POST', '/config/edit', body);
  }

  /** Publishes a draft: it becomes the live config. */
  publish(id: string, summary?: string): Promise<ConfigRecord> {
    return this.call('POST', `/configs/${id}/publish`, summary === undefined ? {} : { summary });
  }

  /** A new draft copied from the live config, with these apps added; labelled `summary`. */
  async createDraft(summary: string, apps: AppItem[]): Promise<ConfigRecord> {
    const result = await this.call<{ id: string; created: boolean }>('POST', '/config/edit', {
      summary,
      operations: [{ create_app: apps }],
    });
    expect(result.created, 'the edit made a new draft').toBe(true);
    return this.get(result.id);
  }
}

/** A short random suffix for ids and labels, so each test (and each repeat) has its own. */
export function uniqueSuffix(): string {
  return Math.random().toString(36).slice(2, 8).padEnd(6, '0');
}

// ---------------------------------------------------------------------------------------
// YAML texts, written as the service writes them (yaml 2, lineWidth 0), so that what a test
// types is also what the service sends back

const STRINGIFY = { lineWidth: 0, flowCollectionPadding: false } as const;

/** `text` changed by `edit`, in the service's formatting, without a final line end. */
export function editYaml(text: string, edit: (document: Document) => void): string {
  const document = parseDocument(text);
  edit(document);
  return document.toString(STRINGIFY).trimEnd();
}

/** `text` with `app` appended to its `apps` list. */
export function withApp(text: string, app: AppItem): string {
  return editYaml(text, (document) => {
    const apps = document.get('apps', true);
    if (isSeq(apps)) {
      apps.flow = false;
      apps.items.push(document.createNode(app));
    } else {
      document.set('apps', document.createNode([app]));
    }
  });
}

/** The ids of the apps in a YAML text (to check what a saved config holds). */
export function appIds(text: string): string[] {
  const apps = parseDocument(text).toJS() as { apps?: { id?: unknown }[] } | null;
  return (apps?.apps ?? []).map((app) => String(app.id));
}

/** The app with this id in a YAML text, as data. */
export function appIn(text: string, id: string): Record<string, unknown> | undefined {
  const apps = parseDocument(text).toJS() as { apps?: Record<string, unknown>[] } | null;
  return apps?.apps?.find((app) => app.id === id);
}

/** Index of the app with this id in the document's `apps` (for setIn paths). */
export function appIndex(document: Document, id: string): number {
  const apps = document.get('apps', true);
  if (!isSeq(apps)) throw new Error('no apps list');
  const index = apps.items.findIndex((item) => isMap(item) && item.get('id') === id);
  if (index < 0) throw new Error(`no app ${id}`);
  return index;
}

/** 1-based line and UTF-16 column of the first `token` on the first line holding `lineText`. */
export function positionOf(
  text: string,
  lineText: string,
  token: string,
): { line: number; column: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(lineText));
  if (index < 0) throw new Error(`no line with ${JSON.stringify(lineText)} in:\n${text}`);
  const column = (lines[index] ?? '').indexOf(token, (lines[index] ?? '').indexOf(lineText));
  if (column < 0) throw new Error(`no ${JSON.stringify(token)} on line ${index + 1}`);
  return { line: index + 1, column: column + 1 };
}

/** The 1-based line and column `length` UTF-16 units after (line, column) in `text`. */
export function positionAfter(
  text: string,
  line: number,
  column: number,
  length: number,
): { line: number; column: number } {
  const lines = text.split('\n');
  let offset = lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0);
  offset += column - 1 + length;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}

// ---------------------------------------------------------------------------------------
// The editor, as a person uses it

/** The editable surface of Monaco, named "Config YAML". */
export function editorTextbox(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Config YAML', exact: true });
}

/** The Monaco editor that holds "Config YAML" (not the diff editor's). */
export function editorRoot(page: Page): Locator {
  return page.locator('.monaco-editor').filter({ has: editorTextbox(page) });
}

export const MarkerSeverity = { Hint: 1, Info: 2, Warning: 4, Error: 8 } as const;

export interface MarkerView {
  owner: string;
  severity: number;
  message: string;
  code: string | undefined;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  /** The model's text under the marker. */
  text: string;
}

export interface EditorState {
  value: string;
  markers: MarkerView[];
  selection: {
    startLineNumber: number;
    startColumn: number;
    endLineNumber: number;
    endColumn: number;
  } | null;
  selectedText: string;
}

/** Monaco loads in a few seconds here: look often rather than back off to a second. */
const POLL_INTERVALS = [100, 200, 250];

/**
 * The "Config YAML" editor's model text, every marker on it (all owners) and its selection;
 * null while Monaco or the editor is not there yet.
 */
export async function editorState(page: Page): Promise<EditorState | null> {
  return page.evaluate(() => {
    const monaco = (window as unknown as { __provisioningMonaco?: typeof MonacoModule })
      .__provisioningMonaco;
    if (!monaco) return null;
    const editor = monaco.editor
      .getEditors()
      .find((candidate) =>
        candidate.getDomNode()?.querySelector('[role="textbox"][aria-label="Config YAML"]'),
      );
    const model = editor?.getModel();
    if (!editor || !model) return null;
    const selection = editor.getSelection();
    return {
      value: model.getValue(),
      markers: monaco.editor.getModelMarkers({ resource: model.uri }).map((marker) => ({
        owner: marker.owner,
        severity: marker.severity,
        message: marker.message,
        code: typeof marker.code === 'string' ? marker.code : marker.code?.value,
        startLineNumber: marker.startLineNumber,
        startColumn: marker.startColumn,
        endLineNumber: marker.endLineNumber,
        endColumn: marker.endColumn,
        text: model.getValueInRange(marker),
      })),
      selection: selection
        ? {
            startLineNumber: selection.startLineNumber,
            startColumn: selection.startColumn,
            endLineNumber: selection.endLineNumber,
            endColumn: selection.endColumn,
          }
        : null,
      selectedText: selection ? model.getValueInRange(selection) : '',
    };
  });
}

/**
 * Monaco (about 1.5 MB gzip, and three workers) takes seconds to load and mount, many more
 * on a busy machine: its first appearance gets longer than an ordinary expectation.
 */
export const EDITOR_LOAD_TIMEOUT = 30_000;

/** The editor's state once it is there (waits for Monaco to load and mount). */
export async function currentEditorState(page: Page): Promise<EditorState> {
  let state: EditorState | null = null;
  await expect
    .poll(async () => (state = await editorState(page)) !== null, {
      message: 'the Monaco editor "Config YAML" is mounted with a model',
      intervals: POLL_INTERVALS,
      timeout: EDITOR_LOAD_TIMEOUT,
    })
    .toBe(true);
  return state as unknown as EditorState;
}

/** The editor's model text (waits for the editor). */
export async function editorValue(page: Page): Promise<string> {
  return (await currentEditorState(page)).value;
}

/** Waits until the editor shows `text` (e.g. the config as loaded from the service). */
export async function expectEditorText(page: Page, text: string): Promise<void> {
  await currentEditorState(page);
  await expect
    .poll(async () => (await editorState(page))?.value.trimEnd(), {
      message: 'the text in the editor',
      intervals: POLL_INTERVALS,
    })
    .toBe(text.trimEnd());
}

/** The markers of one owner (e.g. the server's, `provisioning-server`). */
export async function markersOf(page: Page, owner: string): Promise<MarkerView[]> {
  return ((await editorState(page))?.markers ?? []).filter((marker) => marker.owner === owner);
}

export const SERVER_OWNER = 'provisioning-server';

/** Click into the editor, as a person would, where the text is. */
export async function clickIntoEditor(page: Page): Promise<void> {
  await editorRoot(page).locator('.view-lines').click();
  await expect(editorTextbox(page)).toBeFocused();
}

/** Where the cursor of "Config YAML" is, and the text of its line (null before Monaco). */
async function cursorOf(
  page: Page,
): Promise<{ lineNumber: number; column: number; line: string } | null> {
  return page.evaluate(() => {
    const monaco = (window as unknown as { __provisioningMonaco?: typeof MonacoModule })
      .__provisioningMonaco;
    const editor = monaco?.editor
      .getEditors()
      .find((candidate) =>
        candidate.getDomNode()?.querySelector('[role="textbox"][aria-label="Config YAML"]'),
      );
    const position = editor?.getPosition();
    const model = editor?.getModel();
    if (!position || !model) return null;
    return { ...position, line: model.getLineContent(position.lineNumber) };
  });
}

/** Waits until the cursor is at the end of line `lineNumber` and the line is `expected`. */
async function expectCursorLine(
  page: Page,
  lineNumber: number,
  expected: (line: string) => boolean,
): Promise<{ lineNumber: number; column: number; line: string }> {
  let cursor: Awaited<ReturnType<typeof cursorOf>> = null;
  await expect
    .poll(
      async () => {
        cursor = await cursorOf(page);
        return (
          cursor !== null &&
          cursor.lineNumber === lineNumber &&
          cursor.column === cursor.line.length + 1 &&
          expected(cursor.line)
        );
      },
      { message: `typing line ${lineNumber}`, intervals: [20, 50, 100], timeout: 3_000 },
    )
    .toBe(true);
  return cursor as unknown as { lineNumber: number; column: number; line: string };
}

/**
 * Types `text` over the whole text: select all, then line by line. Monaco indents a new line
 * by itself; where it indented more than the line needs, Backspace takes it back (to the
 * previous tab stop, as in any code editor), and the line is typed after it. Each step waits
 * until the editor shows it, so typing never runs ahead of Monaco. Brackets and quotes that
 * open and close on one line are fine (Monaco types over the one it closed); a bracket left
 * open at a line end is not.
 */
async function typeOnce(page: Page, text: string): Promise<void> {
  await clickIntoEditor(page);
  await page.keyboard.press('ControlOrMeta+A');
  for (const [index, line] of text.split('\n').entries()) {
    const lineNumber = index + 1;
    const indentation = line.length - line.trimStart().length;
    let typed = line;
    if (index > 0) {
      // A typed line end, not the Enter key: Enter would accept a completion if one is open.
      await page.keyboard.insertText('\n');
      let cursor = await expectCursorLine(page, lineNumber, (current) => current.trim() === '');
      while (cursor.column - 1 > indentation) {
        const before = cursor.column;
        await page.keyboard.press('Backspace');
        cursor = await expectCursorLine(
          page,
          lineNumber,
          (current) => current.trim() === '' && current.length + 1 < before,
        );
      }
      typed = line.slice(cursor.column - 1);
    }
    if (typed !== '') await page.keyboard.insertText(typed);
  }
  await page.keyboard.press('Escape');
  const typedText = (await editorState(page))?.value;
  if (typedText?.trimEnd() !== text.trimEnd()) {
    throw new Error(`the editor holds ${JSON.stringify(typedText)}`);
  }
}

/**
 * Replaces the editor's whole text by typing it (see typeOnce), and checks that the editor
 * then holds exactly `text`. Should Monaco have taken a key differently than a person would
 * see it (a completion popping up at the wrong moment), the text is typed again, once.
 */
export async function typeIntoEditor(page: Page, text: string): Promise<void> {
  try {
    await typeOnce(page, text);
  } catch (error) {
    test.info().annotations.push({
      type: 'retyped',
      description: `typing into the editor went astray once: ${String(error).split('\n')[0]}`,
    });
    await page.keyboard.press('Escape');
    await typeOnce(page, text);
  }
  await expectEditorText(page, text);
}

// ---------------------------------------------------------------------------------------
// The page around the editor

export function summaryField(page: Page): Locator {
  return page.getByRole('textbox', { name: 'Summary' });
}

export function saveButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Save draft' });
}

export function problemsRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Problems' });
}

/** The problems panel's entry for an issue: "<line>:<column> <message>". */
export function problemButton(page: Page, issue: Issue): Locator {
  return problemsRegion(page).getByRole('button', {
    name: `${issue.line}:${issue.column} ${issue.message}`,
    exact: true,
  });
}

/** "2 errors, 1 warning", as the problems panel and the config list count. */
export function countsText(errors: number, warnings: number): string {
  const part = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (errors === 0 && warnings === 0) return 'No problems';
  if (warnings === 0) return part(errors, 'error');
  if (errors === 0) return part(warnings, 'warning');
  return `${part(errors, 'error')}, ${part(warnings, 'warning')}`;
}

/** The config's page id from the URL (`/configs/cfg_...`). */
export function configIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split('/')[2];
  if (!id) throw new Error(`not a config page: ${page.url()}`);
  return id;
}

export const DRAFT_URL = (url: URL) => /^\/configs\/cfg_[0-9A-Za-z_-]+$/.test(url.pathname);

/** Fills the Summary and presses Save draft. */
export async function saveDraft(page: Page, summary: string): Promise<void> {
  await summaryField(page).fill(summary);
  await saveButton(page).click();
}
