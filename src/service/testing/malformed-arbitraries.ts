/**
 * fast-check generators of malformed requests for every endpoint of the contract table:
 * wrong methods, bad or missing keys, bad ids, bad queries and headers, and bodies that are
 * not JSON, of the wrong content type, too large, too deep, of the wrong shape, with two
 * action keys or bad pointers, and unicode edge cases. Each one is malformed by construction,
 * so the only right answer is a problem+json 4xx. Test-only.
 */
import fc from 'fast-check';
import { IF_MATCH_PATTERN } from '../../contract/configs';
import { ID_PATTERN } from '../../contract/config-document';
import { API_BASE_PATH, contract, MAX_BODY_BYTES, type Endpoint } from '../../contract/endpoints';

export interface MalformedRequest {
  readonly category: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
}

/** Real ids in the service under test, so that a bad body is not hidden behind a 404. */
export interface Targets {
  readonly key: string;
  readonly draftId: string;
  readonly liveId: string;
  readonly apiKeyId: string;
  /** A config of another account: 404 here. */
  readonly foreignConfigId: string;
}

const JSON_TYPE = 'application/json';

/** No lone surrogates: the text can be percent-encoded. */
function isWellFormed(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** Text with the unicode that breaks careless code: surrogates, BOM, NUL, RTL, joiners. */
export const awkwardText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    '\ufeff',
    '\u0000',
    '\u202eevil',
    'e\u0301\u0301\u0301',
    '👩‍👩‍👧‍👦',
    '\uffff',
    '𝕏'.repeat(100),
    ' \t\n ',
    '..',
    '%00',
    '%2e%2e%2f',
  ),
);

/** Text holding a lone UTF-16 surrogate somewhere. */
const loneSurrogate = fc
  .tuple(
    fc.string({ maxLength: 10 }),
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\udc00\ud800'),
    fc.string({ maxLength: 10 }),
  )
  .map((parts) => parts.join(''));

/** Any JSON-able value, from plain to hostile. */
export const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  awkwardText,
  fc.constant('x'.repeat(100_000)),
  fc.constant(Array.from({ length: 20_000 }, (_, i) => i)),
  fc.integer({ min: 100, max: 5_000 }).map((depth) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = depth % 2 ? [value] : { a: value };
    return value;
  }),
);

const notAString = anyValue.filter((value) => typeof value !== 'string');
const notAnArray = anyValue.filter((value) => !Array.isArray(value));

function pathOf(endpoint: Endpoint, id: string): string {
  return `${API_BASE_PATH}${endpoint.path.replace('{id}', id)}`;
}

/** An id no row has, written as a URL path segment (some not even valid UTF-8). */
const badIdSegment = (targets: Targets) =>
  fc.oneof(
    awkwardText
      .filter((text) => text.length > 0 && isWellFormed(text))
      .map((text) => encodeURIComponent(text)),
    fc.constantFrom(
      '%ED%A0%80', // a UTF-8 encoded surrogate
      '%FF%FE',
      '%C0%AF', // overlong '/'
      '%',
      '%zz',
      '..%2F..%2Fetc%2Fpasswd',
      '%00',
      'cfg_' + '0'.repeat(26),
      'key_' + '0'.repeat(26),
      encodeURIComponent(targets.foreignConfigId),
      'a'.repeat(120),
      'a'.repeat(5_000),
    ),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  );

const authorization = (key: string) => ({ authorization: `Bearer ${key}` });

/** Authorization headers that must get a 401. */
const badAuthorization = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'Basic YWRtaW46YWRtaW4=',
    'Bearer sk_',
    `Bearer sk_${'A'.repeat(40)}`,
    `Bearer sk_${'A'.repeat(5_000)}`,
    'Bearer sk_live_ sk_live_',
    'bearer\tsk_x',
    'Bearer \u00ff\u00fe',
    'Token sk_abc',
  ),
  fc.string({ maxLength: 60 }).map((text) => `Bearer ${text.replace(/[^\x20-\x7e]/g, 'x')}x`),
);

/** Content types other than JSON. */
const wrongContentType = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/octet-stream',
  'text/json',
);

/** Text `JSON.parse` refuses (a generated `{` + `}` would be a valid, empty object). */
function isNotJson(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

/** A body that is not a JSON object: other JSON, broken JSON, nothing. */
const notAnObjectBody = fc.oneof(
  anyValue
    .filter((value) => typeof value !== 'object' || value === null || Array.isArray(value))
    .map((value) => JSON.stringify(value)),
  fc
    .string({ maxLength: 200 })
    .map((text) => `{${text}`)
    .filter(isNotJson),
  fc.constantFrom('', '{', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', '\ufeff', '{"a":"\\u12"}'),
);

/** For each endpoint with a body schema: objects that break it for sure. */
function wrongShapes(name: string): fc.Arbitrary<unknown> {
  const extras = fc.dictionary(awkwardText, anyValue, { maxKeys: 3 });
  switch (name) {
    case 'editConfig': {
      const item = { id: 'a', name: 'A', platform: 'web' };
      return fc
        .oneof(
          // Missing or mistyped operations.
          fc.record({ summary: fc.string() }, { requiredKeys: [] }),
          fc.record({ operations: notAnArray, summary: fc.constant('s') }),
          fc.constant({ operations: [], summary: 's' }),
          // Two action keys in one operation.
          fc
            .constantFrom('delete_app', 'set', 'update_app', 'start_ab_test')
            .map((other) => ({ operations: [{ create_app: [item], [other]: [] }], summary: 's' })),
          // Unknown or hostile action keys.
          fc
            .constantFrom('rename_app', '', '__proto__', 'constructor', 'CREATE_APP', 'create_app ')
            .map((key) => ({ operations: [JSON.parse(`{"${key}":[]}`)], summary: 's' })),
          // Bad JSON pointers.
          fc
            .constantFrom('apps', 'notes', '/~2', '/apps~', '/apps/-1/name', '/apps/99999/name')
            .chain((path) =>
              anyValue.map((value) => ({ operations: [{ set: [{ path, value }] }], summary: 's' })),
            ),
          fc
            .constantFrom('apps', '/~3', '/ab_tests/x/y/z', '/apps/-')
            .map((path) => ({ operations: [{ unset: [{ path }] }], summary: 's' })),
          // Items of the wrong type.
          notAnArray.map((items) => ({ operations: [{ create_app: items }], summary: 's' })),
          // Summary of the wrong type or size, with a good operation.
          notAString.map((summary) => ({ operations: [{ create_app: [item] }], summary })),
          fc.constant({ operations: [{ create_app: [item] }], summary: 's'.repeat(100_000) }),
          // Lone surrogates: SQLite's UTF-8 cannot hold them (they would come back as U+FFFD).
          loneSurrogate.map((text) => ({ operations: [{ create_app: [item] }], summary: text })),
          loneSurrogate.map((text) => ({
            operations: [{ create_app: [{ ...item, name: text }] }],
            summary: 's',
          })),
        )
        .chain((body) =>
          extras.map((extra) => ({ ...extra, ...(body as Record<string, unknown>) })),
        );
    }
    case 'createApiKey':
      return fc
        .oneof(
          fc.record({ expires_in_days: fc.integer({ min: 1, max: 30 }) }),
          fc.record({ name: notAString }),
          fc.record({ name: fc.constantFrom('', '   ', 'x'.repeat(10_000)) }),
          fc.record({ name: loneSurrogate }),
          fc.record({
            name: fc.constant('ok'),
            expires_in_days: fc.oneof(
              fc.constantFrom(0, -1, 1.5, 1e9, '30', null, Number.MAX_SAFE_INTEGER),
              fc.string(),
            ),
          }),
          fc.record({
            name: fc.constant('ok'),
            permissions: fc.oneof(
              notAnArray,
              fc.constant(['root']),
              fc.array(awkwardText, { minLength: 1 }),
            ),
          }),
        )
        .chain((body) =>
          extras.map((extra) => ({ ...extra, ...(body as Record<string, unknown>) })),
        );
    case 'createClientKey':
      return fc
        .oneof(
          fc.record({ apps: fc.constant(['checkout']) }),
          fc.record({ name: notAString }),
          fc.record({ name: fc.constantFrom('', '   ', 'x'.repeat(101)) }),
          fc.record({ name: loneSurrogate }),
          fc.record({
            name: fc.constant('ok'),
            apps: fc.oneof(
              notAnArray,
              fc.constant([]),
              fc.constant(['a', 'a']),
              fc.array(
                awkwardText.filter((text) => !new RegExp(ID_PATTERN).test(text)),
                {
                  minLength: 1,
                  maxLength: 3,
                },
              ),
            ),
          }),
        )
        .chain((body) =>
          extras
            .filter((extra) => !('name' in extra) && !('apps' in extra))
            .map((extra) => ({ ...extra, ...(body as Record<string, unknown>) })),
        );
    case 'createWebhook': {
      const url = 'https://hooks.example.com/hook';
      const events = ['config.published'];
      return fc.oneof(
        fc.record({ events: fc.constant(events) }),
        fc.record({ url: fc.constant(url) }),
        fc.record({ url: notAString, events: fc.constant(events) }),
        fc.record({
          url: fc.oneof(
            fc.constantFrom(
              '',
              'http://hooks.example.com/hook',
              'ftp://hooks.example.com/hook',
              'https://u:p@hooks.example.com/hook',
              'https://127.0.0.1/hook',
              'https://[::1]/hook',
              'https://localhost/hook',
              `https://hooks.example.com/${'a'.repeat(2_048)}`,
            ),
            awkwardText.filter((text) => !/^https:\/\/[^/]/.test(text)),
            loneSurrogate,
          ),
          events: fc.constant(events),
        }),
        fc.record({
          url: fc.constant(url),
          events: fc.oneof(
            notAnArray,
            fc.constant([]),
            fc.constant(['config.published', 'config.published']),
            fc.constant(['webhook.test']),
            fc.array(
              awkwardText.filter((text) => !['config.published', 'ab_test.changed'].includes(text)),
              { minLength: 1, maxLength: 3 },
            ),
          ),
        }),
        fc.record({
          url: fc.constant(url),
          events: fc.constant(events),
          description: fc.oneof(
            notAString.filter((value) => value !== undefined),
            fc.constant('d'.repeat(501)),
            loneSurrogate,
          ),
        }),
      );
    }
    case 'publishConfig':
      return fc.oneof(
        fc.record({ summary: notAString.filter((value) => value !== undefined) }),
        fc.constant({ summary: 's'.repeat(100_000) }),
        fc.record({ summary: loneSurrogate }),
      );
    case 'requestReview':
      return fc.oneof(
        fc.record({ note: notAString.filter((value) => value !== undefined) }),
        fc.constant({ note: 'n'.repeat(5_001) }),
        fc.record({ note: loneSurrogate }),
        fc.record({
          publish_on_approval: anyValue.filter((value) => typeof value !== 'boolean'),
        }),
      );
    case 'addReview': {
      const notAVerdict = awkwardText.filter(
        (text) => !['approve', 'request_changes', 'comment'].includes(text),
      );
      return fc.oneof(
        fc.record({ body: fc.string() }),
        fc.record({ verdict: notAVerdict, body: fc.string() }),
        fc.record({ verdict: fc.constant('comment') }),
        fc.record({ verdict: fc.constant('comment'), body: fc.constantFrom('', '  ', '\n') }),
        fc.constant({ verdict: 'comment', body: 'b'.repeat(5_001) }),
        fc.record({ verdict: fc.constant('comment'), body: loneSurrogate }),
        fc.record({
          verdict: fc.constantFrom('approve', 'request_changes', 'comment'),
          body: fc.constant('b'),
          line: fc.constantFrom(0, -1, 1.5, '2', null, 2 ** 53),
        }),
      );
    }
    case 'setAccountPolicy':
      return fc.oneof(
        fc.record({
          approvals_required: fc.constantFrom(6, -1, 1.5, '1', null, 1e9),
          reset_approvals_on_edit: fc.boolean(),
        }),
        fc.record({ approvals_required: fc.integer({ min: 0, max: 5 }) }),
        fc.record({
          approvals_required: fc.integer({ min: 0, max: 5 }),
          reset_approvals_on_edit: anyValue.filter((value) => typeof value !== 'boolean'),
        }),
        extras
          .filter((extra) =>
            Object.keys(extra).some(
              (key) => key !== 'approvals_required' && key !== 'reset_approvals_on_edit',
            ),
          )
          .map((extra) => ({ ...extra, approvals_required: 1, reset_approvals_on_edit: true })),
      );
    case 'signInWithPassword':
      return fc.oneof(
        fc.record({ password: fc.constant('long enough password') }),
        fc.record({ email: fc.constant('ana@acme.com') }),
        fc.record({ email: notAString, password: fc.constant('p') }),
        fc.record({
          email: fc.constantFrom('', 'ana', '@acme.com', `${'a'.repeat(300)}@acme.com`),
          password: fc.constant('p'),
        }),
        fc.record({
          email: fc.constant('ana@acme.com'),
          password: fc.oneof(notAString, fc.constant(''), fc.constant('p'.repeat(513))),
        }),
        extrasBeyond(extras, ['email', 'password']).map((extra) => ({
          ...extra,
          email: 'ana@acme.com',
          password: 'p',
        })),
      );
    case 'updateMember':
      return fc.oneof(
        fc.constant({}),
        fc.record({
          role: awkwardText.filter((text) => !['admin', 'editor', 'viewer'].includes(text)),
        }),
        extrasBeyond(extras, ['role']).map((extra) => ({ ...extra, role: 'viewer' })),
      );
    case 'createInvitation':
      return fc.oneof(
        fc.record({ email: fc.constant('ana@acme.com') }),
        fc.record({ role: fc.constant('viewer') }),
        fc.record({ email: fc.constantFrom('', 'not an email', 42), role: fc.constant('viewer') }),
        fc.record({ email: fc.constant('ana@acme.com'), role: fc.constantFrom('owner', '', null) }),
        extrasBeyond(extras, ['email', 'role']).map((extra) => ({
          ...extra,
          email: 'ana@acme.com',
          role: 'viewer',
        })),
      );
    case 'acceptInvitation':
      return fc.oneof(
        fc.record({
          password: fc.oneof(
            notAString.filter((value) => value !== undefined),
            fc.constant(''),
          ),
        }),
        fc.constant({ password: 'p'.repeat(513) }),
        extrasBeyond(extras, ['password', 'name']).map((extra) => ({
          ...extra,
          password: 'long enough password',
        })),
      );
    case 'setOrganizationSettings': {
      const fine = {
        session_idle_minutes: 30,
        session_max_hours: 12,
        password_sign_in: true,
        sso: null,
      };
      return fc.oneof(
        fc
          .record({ session_idle_minutes: fc.constantFrom(0, 4, 1441, 1.5, '30', null) })
          .map((wrong) => ({ ...fine, ...wrong })),
        fc.record({ session_max_hours: fc.constantFrom(0, 169, 2.5, '12') }).map((wrong) => ({
          ...fine,
          ...wrong,
        })),
        fc.constant({ ...fine, password_sign_in: 'yes' }),
        fc.constant({ ...fine, sso: { issuer: 'not a url', client_id: 'c' } }),
        fc.constant({ session_idle_minutes: 30 }),
        extrasBeyond(extras, Object.keys(fine)).map((extra) => ({ ...extra, ...fine })),
      );
    }
    case 'createAccount':
      return fc.oneof(
        fc.record({ name: fc.constant('Staging') }),
        fc.record({ account_type: fc.constant('staging') }),
        fc.record({
          name: fc.constantFrom('', '   ', 'n'.repeat(101), 42, null),
          account_type: fc.constant('staging'),
        }),
        fc.record({
          name: fc.constant('Staging'),
          account_type: awkwardText.filter(
            (text) => !['production', 'staging', 'development'].includes(text),
          ),
        }),
        fc.record({
          name: fc.constant('Staging'),
          account_type: fc.constant('staging'),
          copy_from: fc.oneof(
            notAString.filter((value) => value !== undefined),
            fc.constant('a'.repeat(101)),
          ),
        }),
        extrasBeyond(extras, ['name', 'account_type', 'copy_from', 'protected']).map((extra) => ({
          ...extra,
          name: 'Staging',
          account_type: 'staging',
        })),
      );
    case 'updateAccount':
      return fc.oneof(
        fc.constant({}),
        fc.record({ name: fc.constantFrom('', 'n'.repeat(101), 42) }),
        fc.record({ protected: fc.constantFrom('yes', 1, null) }),
        extrasBeyond(extras, ['name', 'protected']).map((extra) => ({ ...extra, name: 'Renamed' })),
      );
    case 'createSchedule': {
      const fine = { at: '2099-01-01T09:00:00.000Z', config_id: 'cfg_x', action: 'publish' };
      return fc.oneof(
        fc.constant({ config_id: 'cfg_x', action: 'publish' }),
        fc
          .record({ at: fc.constantFrom('tomorrow', '', 42, '2099-13-01T00:00:00Z') })
          .map((wrong) => ({ ...fine, ...wrong })),
        fc
          .record({ action: awkwardText.filter((text) => !['publish', 'ab_test'].includes(text)) })
          .map((wrong) => ({ ...fine, ...wrong })),
        fc.constant({ ...fine, action: 'ab_test', operations: [] }),
        fc.constant({ ...fine, action: 'ab_test', operations: [{}, {}] }),
        extrasBeyond(extras, ['at', 'config_id', 'action', 'operations', 'summary']).map(
          (extra) => ({ ...extra, ...fine }),
        ),
      );
    }
    case 'previewPromotion':
    case 'createPromotion': {
      const fine = {
        from_account: 'acc_a',
        to_account: 'acc_b',
        ...(name === 'createPromotion' ? { summary: 'Promote' } : {}),
      };
      return fc.oneof(
        fc.constant({ to_account: 'acc_b', summary: 'Promote' }),
        fc
          .record({ from_account: fc.constantFrom('', 42, null, 'a'.repeat(201)) })
          .map((wrong) => ({ ...fine, ...wrong })),
        fc
          .record({
            items: fc.constantFrom(
              'all',
              [{}],
              [{ app: 'checkout', ab_test: 'x' }],
              [{ app: 'Not An Id' }],
              Array.from({ length: 501 }, () => ({ app: 'checkout' })),
            ),
          })
          .map((wrong) => ({ ...fine, ...wrong })),
        fc.constant({ ...fine, summary: name === 'createPromotion' ? '' : 42 }),
      );
    }
    case 'createMetric':
    case 'updateMetric': {
      const known = ['id', 'name', 'kind', 'event', 'window_hours', 'inverse', 'cap'];
      const fine =
        name === 'createMetric'
          ? { id: 'revenue', name: 'Revenue', kind: 'mean', event: 'purchase' }
          : { name: 'Revenue' };
      const wrong = (field: fc.Arbitrary<Record<string, unknown>>) =>
        field.map((value) => ({ ...fine, ...value }));
      return fc.oneof(
        name === 'createMetric'
          ? fc.constant({ name: 'Revenue', kind: 'mean', event: 'purchase' })
          : fc.constant({}),
        wrong(
          fc.record({
            id: fc.oneof(
              notAString.filter((value) => value !== undefined),
              awkwardText.filter((text) => !new RegExp(ID_PATTERN).test(text)),
            ),
          }),
        ),
        wrong(fc.record({ name: fc.constantFrom('', '   ', 'n'.repeat(101), 42, null) })),
        wrong(fc.record({ name: loneSurrogate })),
        wrong(
          fc.record({
            kind: awkwardText.filter((text) => !['binomial', 'count', 'mean'].includes(text)),
          }),
        ),
        wrong(fc.record({ event: fc.constantFrom('', 'e'.repeat(101), 42, null) })),
        wrong(fc.record({ window_hours: fc.constantFrom(0, -1, 1.5, 2_161, '72', null) })),
        wrong(
          fc.record({
            inverse: anyValue.filter((value) => value !== undefined && typeof value !== 'boolean'),
          }),
        ),
        wrong(fc.record({ cap: fc.constantFrom(0, -1, 'high', true) })),
        extrasBeyond(extras, known).map((extra) => ({ ...extra, ...fine })),
      );
    }
    case 'sendEvents': {
      // Each event is judged on its own (a 202 names the bad ones): only the batch is malformed.
      const event = {
        kind: 'metric',
        event: 'purchase',
        unit: 'u1',
        at: '2026-11-22T10:00:00Z',
        id: 'e1',
      };
      return fc.oneof(
        fc.constant({}),
        fc.record({
          events: anyValue.filter((value) => value !== undefined && !Array.isArray(value)),
        }),
        fc.constant({ events: Array.from({ length: 501 }, () => event) }),
        extrasBeyond(extras, ['events']).map((extra) => ({ ...extra, events: [event] })),
      );
    }
    default:
      throw new Error(`no wrong shapes for ${name}`);
  }
}

/** Extra fields, at least one of which the body does not know. */
function extrasBeyond(
  extras: fc.Arbitrary<Record<string, unknown>>,
  known: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  return extras.filter((extra) => Object.keys(extra).some((key) => !known.includes(key)));
}

/** Every malformed request this endpoint can be sent, by category. */
export function malformedRequestFor(
  name: keyof typeof contract,
  targets: Targets,
): fc.Arbitrary<MalformedRequest> {
  const endpoint: Endpoint = contract[name];
  const needsKey = endpoint.auth === 'signed_in';
  const idFor =
    name === 'revokeApiKey'
      ? targets.apiKeyId
      : name === 'activateConfig'
        ? targets.liveId
        : targets.draftId;
  const url = pathOf(endpoint, encodeURIComponent(idFor));
  const good: Record<string, string> = needsKey ? authorization(targets.key) : {};
  const categories: fc.Arbitrary<MalformedRequest>[] = [
    // A method the path does not have.
    fc.constantFrom('PUT', 'PATCH', 'OPTIONS').map((method) => ({
      category: 'wrong method',
      method,
      url,
      headers: good,
    })),
  ];

  if (needsKey) {
    categories.push(
      badAuthorization.map((header) => ({
        category: 'bad key',
        method: endpoint.method,
        url,
        headers: (header === undefined ? {} : { authorization: header }) as Record<string, string>,
        ...(endpoint.body ? { payload: '{}' } : {}),
      })),
    );
  }
  if (endpoint.params) {
    categories.push(
      badIdSegment(targets).map((segment) => ({
        category: 'bad id',
        method: endpoint.method,
        url: pathOf(endpoint, segment),
        headers: { ...good, ...(endpoint.body ? { 'content-type': JSON_TYPE } : {}) },
        ...(endpoint.body ? { payload: '{}' } : {}),
      })),
    );
  }
  if (endpoint.query) {
    const badKind = fc.oneof(
      awkwardText
        .filter((kind) => kind !== 'draft' && kind !== 'published' && isWellFormed(kind))
        .map((kind) => `kind=${encodeURIComponent(kind)}`),
      fc.constantFrom('kind=draft&kind=published', 'kind=', 'kind=%ZZ', 'kind=DRAFT'),
    );
    // A list's page: a limit out of range or not a number, a cursor it did not make.
    const badPage = fc.oneof(
      fc.constantFrom('limit=0', 'limit=201', 'limit=1.5', 'limit=ten', 'limit=', 'cursor='),
      awkwardText
        .filter((text) => text.length > 0 && isWellFormed(text))
        .map((text) => `cursor=${encodeURIComponent(text)}`),
    );
    const badTime = fc.constantFrom('from=yesterday', 'to=2026-13-45', 'from=1', 'to=');
    const shape = endpoint.query.shape;
    const kinds = [
      ...('kind' in shape ? [badKind] : []),
      ...(endpoint.paged ? [badPage] : []),
      ...('from' in shape ? [badTime] : []),
    ];
    const bad = kinds.length > 0 ? fc.oneof(...kinds) : badKind;
    // A redirect back from an identity provider takes parameters of the provider's own:
    // a query it does not know still leads to the sign-in page, not to a 400.
    if (!(302 in endpoint.responses))
      categories.push(
        bad.map((query) => ({
          category: 'bad query',
          method: endpoint.method,
          url: `${url}?${query}`,
          headers: good,
        })),
      );
  }
  if (endpoint.headers && 'if-match' in endpoint.headers.shape) {
    categories.push(
      fc
        .oneof(
          fc.constantFrom('W/"1"', '*', '1', '"0"', '"-1"', '"01"', '""', '"1", "2"', 'null'),
          fc.string({ maxLength: 30 }).map((text) => text.replace(/[^\x20-\x7e]/g, '?')),
        )
        .filter((value) => !new RegExp(IF_MATCH_PATTERN).test(value.trim()))
        .map((ifMatch) => ({
          category: 'bad If-Match',
          method: endpoint.method,
          url,
          headers: { ...good, 'content-type': JSON_TYPE, 'if-match': ifMatch },
          payload: JSON.stringify({
            config_id: targets.draftId,
            operations: [{ create_app: [{ id: 'if-match', name: 'x', platform: 'web' }] }],
            summary: 'never applied',
          }),
        })),
    );
  }
  if (endpoint.method !== 'GET') {
    // Bodies the content-type parser refuses: on every endpoint that reads one.
    categories.push(
      fc.tuple(wrongContentType, fc.string({ maxLength: 100 })).map(([type, text]) => ({
        category: 'wrong content type',
        method: endpoint.method,
        url,
        headers: { ...good, 'content-type': type },
        payload: text || 'x',
      })),
      fc.constant({
        category: 'too large',
        method: endpoint.method,
        url,
        headers: { ...good, 'content-type': JSON_TYPE },
        payload: JSON.stringify({ summary: 'x'.repeat(MAX_BODY_BYTES) }),
      }),
      fc
        .string({ maxLength: 200 })
        .map((text) => `{"a":${text}`)
        .filter(isNotJson)
        .map((payload) => ({
          category: 'not JSON',
          method: endpoint.method,
          url,
          headers: { ...good, 'content-type': JSON_TYPE },
          payload,
        })),
    );
  }
  if (endpoint.body) {
    categories.push(
      notAnObjectBody
        .filter((payload) => !(endpoint.bodyRequired === false && payload === ''))
        .map((payload) => ({
          category: 'not an object',
          method: endpoint.method,
          url,
          headers: { ...good, 'content-type': JSON_TYPE },
          payload,
        })),
      wrongShapes(name).map((body) => ({
        category: 'wrong shape',
        method: endpoint.method,
        url,
        headers: { ...good, 'content-type': JSON_TYPE },
        payload: JSON.stringify(
          name === 'editConfig'
            ? { config_id: targets.draftId, ...(body as Record<string, unknown>) }
            : body,
        ),
      })),
    );
  }
  return fc.oneof(...categories);
}
