/**
 * The operator's command line (docs/operations.md): `provisioning serve | accounts create |
 * users create | keys create | keys list | keys revoke | sign-in-link create | sso set | backup |
 * restore`. Each command prints one JSON value
 * on stdout, or one line on stderr and exits 1; all work while the server runs on the same
 * data directory (SQLite in WAL mode), or on the same PostgreSQL database (`DATABASE_URL`).
 * `config pull | validate | diff | push | schema` are clients of a running service instead
 * (src/config-cli, docs/config-as-code.md), with their own output and exit codes.
 */
import { parseArgs } from 'node:util';
import { CONFIG_COMMANDS, runConfigCommand, type ConfigCommandName } from '../config-cli/commands';
import { processIo } from '../config-cli/command-io';
import { API_KEY_MAX_EXPIRES_IN_DAYS } from '../contract/api-keys';
import { API_BASE_PATH } from '../contract/endpoints';
import { PERMISSIONS, ROLES, type Permission, type Role } from '../contract/auth-status';
import { Accounts, organizationOfAccount } from './domain/accounts';
import { ApiKeys, publicApiKey } from './domain/api-keys';
import { systemClock } from './domain/clock';
import { startServer } from './server';
import { groupRolesFrom, settingsFromEnv } from './settings';
import { readFileSync } from 'node:fs';
import {
  organizationSettingsUpdateSchema,
  SESSION_IDLE_MINUTES,
  SESSION_MAX_HOURS,
} from '../contract/people';
import { createInvitation } from './domain/invitations';
import { OrganizationSettingsService } from './domain/organization-settings';
import { DEFAULT_SESSION_LENGTHS } from './domain/sessions';
import { describeStore, openStore, type StoreLocation } from './store/open-store';
import { backupSqlite, restoreSqlite } from './store/sqlite-backup';
import { allPages } from './store/pages';
import type { Store } from './store/store';

class UsageError extends Error {}

/** A command on the data directory or database: its result is printed as one JSON value. */
interface StoreCommand {
  readonly usage: string;
  readonly options: Record<string, { type: 'string' | 'boolean' }>;
  run(
    values: Record<string, string | boolean | undefined>,
    location: StoreLocation,
  ): Promise<unknown>;
}

/** A config command (src/config-cli): a client of the running service, with its own output and exit codes. */
interface ConfigClientCommand {
  readonly usage: string;
  readonly config: ConfigCommandName;
}

type Command = StoreCommand | ConfigClientCommand;

const configCommands = Object.fromEntries(
  (Object.keys(CONFIG_COMMANDS) as ConfigCommandName[]).map((name) => [
    `config ${name}`,
    { usage: CONFIG_COMMANDS[name].usage, config: name },
  ]),
);

const COMMON = { 'data-dir': { type: 'string' }, help: { type: 'boolean' } } as const;

async function withStore<T>(
  location: StoreLocation,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore(location);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

function required(values: Record<string, string | boolean | undefined>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function role(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value))
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
  return value as Role;
}

function permissions(value: string): Permission[] {
  const list = value
    .split(',')
    .map((permission) => permission.trim())
    .filter(Boolean);
  const unknown = list.filter(
    (permission) => !(PERMISSIONS as readonly string[]).includes(permission),
  );
  if (unknown.length > 0)
    throw new UsageError(
      `unknown permission ${unknown.join(', ')}; known: ${PERMISSIONS.join(', ')}`,
    );
  return list as Permission[];
}

/** The API's bounds, so that a key made here could have been made through the API. */
function expiryDays(value: string): number {
  const days = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= API_KEY_MAX_EXPIRES_IN_DAYS))
    throw new UsageError(
      `--expires-in-days must be a whole number of days from 1 to ${API_KEY_MAX_EXPIRES_IN_DAYS.toLocaleString('en')}, got "${value}"`,
    );
  return days;
}

/** Backups of PostgreSQL are the database's own tools' work (docs/deployment.md). */
function refusePostgres(location: StoreLocation, tool: string): void {
  if (location.databaseUrl)
    throw new Error(
      `the data is in PostgreSQL (DATABASE_URL): use ${tool} --format=custom --no-owner as docs/deployment.md (Backups) describes`,
    );
}

/** SIGTERM to exit, at most: the drain has its own, shorter deadline (server.ts). */
const STOP_LIMIT_MS = 10_000;

const COMMANDS: Record<string, Command> = {
  serve: {
    usage:
      'serve [--port N] [--data-dir DIR] [--demo]   start the service (--demo: seed an empty database)',
    options: { port: { type: 'string' }, demo: { type: 'boolean' } },
    async run(values, location) {
      const settings = settingsFromEnv();
      const port = values.port === undefined ? settings.port : Number(values.port);
      if (!Number.isInteger(port) || port < 0) throw new UsageError('--port must be a port number');
      const server = await startServer(
        { ...settings, ...location, port },
        { demo: values.demo === true },
      );
      const shutdown = () => {
        // Should the drain itself hang, the process still ends.
        setTimeout(() => process.exit(1), STOP_LIMIT_MS).unref();
        server.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`provisioning serve: the stop failed: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
      if (server.demo) {
        process.stderr.write(
          `\nProvisioning Console: ${server.url}\nSign in as the demo owner (${server.demo.account.email}), once, to set a password:\n\n  ${server.url}${server.demo.signInPath}\n\nDemo admin API key (shown once, keep it; "Use an API key" on the sign-in page):\n\n  ${server.demo.apiKey}\n\nWhat the demo's checkout app reads (client key ${server.demo.clientKey}):\n\n  curl ${server.url}${API_BASE_PATH}/delivery/${server.demo.clientKey}/apps/checkout\n\n`,
        );
      } else {
        process.stderr.write(`\nProvisioning Console: ${server.url}\n\n`);
      }
      return {
        url: server.url,
        ...(location.databaseUrl
          ? { database: describeStore(location) }
          : { data_dir: location.dataDir }),
        ...(server.demo
          ? {
              demo_api_key: server.demo.apiKey,
              demo_sign_in_url: `${server.url}${server.demo.signInPath}`,
              demo_client_key: server.demo.clientKey,
              demo_account_id: server.demo.account.account_id,
            }
          : {}),
      };
    },
  },
  'accounts create': {
    usage: 'accounts create --name NAME [--owner-email EMAIL]   a new account with an admin owner',
    options: { name: { type: 'string' }, 'owner-email': { type: 'string' } },
    run: (values, location) =>
      withStore(location, (store) =>
        new Accounts(store, systemClock).create({
          name: required(values, 'name'),
          ownerEmail:
            typeof values['owner-email'] === 'string' ? values['owner-email'] : 'owner@example.com',
        }),
      ),
  },
  'users create': {
    usage: 'users create --account ID --email EMAIL --role admin|editor|viewer',
    options: { account: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    run: (values, location) =>
      withStore(location, async (store) => {
        const user = await new Accounts(store, systemClock).addUser({
          accountId: required(values, 'account'),
          email: required(values, 'email'),
          role: role(required(values, 'role')),
        });
        return {
          user_id: user.id,
          account_id: user.account_id,
          email: user.email,
          role: user.role,
        };
      }),
  },
  'keys create': {
    usage:
      'keys create --user ID --name NAME [--permissions P,Q] [--expires-in-days N]   prints the secret once',
    options: {
      user: { type: 'string' },
      name: { type: 'string' },
      permissions: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    run: (values, location) =>
      withStore(location, async (store) => {
        const userId = required(values, 'user');
        const user = await store.getUser(userId);
        if (!user) throw new Error(`there is no user ${userId}`);
        const days = values['expires-in-days'];
        const expiresInDays = typeof days === 'string' ? expiryDays(days) : undefined;
        const key = await new ApiKeys(store, systemClock).issue({
          user,
          name: required(values, 'name'),
          ...(typeof values.permissions === 'string'
            ? { permissions: permissions(values.permissions) }
            : {}),
          ...(expiresInDays !== undefined ? { expiresInDays } : {}),
          actor: null,
        });
        return {
          id: key.id,
          name: key.name,
          secret: key.secret,
          obfuscated_value: key.obfuscated_value,
          permissions: key.permissions,
          expires_at: key.expires_at,
          account_id: user.account_id,
          user_id: user.id,
        };
      }),
  },
  'keys list': {
    usage: "keys list --account ID   the account's keys, never a secret",
    options: { account: { type: 'string' } },
    run: (values, location) =>
      withStore(location, async (store) =>
        (await allPages((page) => store.listApiKeys(required(values, 'account'), page))).map(
          publicApiKey,
        ),
      ),
  },
  'keys revoke': {
    usage: 'keys revoke --id KEY_ID   the key fails from its next request on',
    options: { id: { type: 'string' } },
    run: (values, location) =>
      withStore(location, async (store) => {
        const id = required(values, 'id');
        const key = await store.findApiKey(id);
        if (!key) throw new Error(`there is no API key ${id}`);
        return new ApiKeys(store, systemClock).revokeIn(key.account_id, id, null);
      }),
  },
  'sign-in-link create': {
    usage:
      'sign-in-link create --user ID [--url PUBLIC_URL]   a one-time link (7 days) for a member to set a password and sign in',
    options: { user: { type: 'string' }, url: { type: 'string' } },
    run: (values, location) =>
      withStore(location, async (store) => {
        const userId = required(values, 'user');
        const user = await store.getUser(userId);
        if (!user || user.removed_at) throw new Error(`there is no member ${userId}`);
        const { record, token } = await createInvitation(store, {
          accountId: user.account_id,
          email: user.email,
          role: user.role,
          by: null,
          now: systemClock(),
        });
        const origin =
          typeof values.url === 'string' ? values.url : settingsFromEnv().people.publicUrl;
        return {
          invitation_id: record.id,
          email: record.email,
          expires_at: record.expires_at,
          link: `${origin ?? ''}/invitations/${token}`,
        };
      }),
  },
  'sso set': {
    usage:
      "sso set --account ID --issuer URL --client-id ID --client-secret-file FILE --domains a.com,b.com [--groups-claim NAME] [--group-roles g=role,...] [--default-role admin|editor|viewer|refuse] [--jit]   the SSO connection of the account's organization (the secret is read from a file, never the command line)",
    options: {
      account: { type: 'string' },
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-file': { type: 'string' },
      domains: { type: 'string' },
      'groups-claim': { type: 'string' },
      'group-roles': { type: 'string' },
      'default-role': { type: 'string' },
      jit: { type: 'boolean' },
    },
    run: (values, location) =>
      withStore(location, async (store) => {
        const accountId = required(values, 'account');
        const secret = readFileSync(required(values, 'client-secret-file'), 'utf8').trim();
        if (secret === '') throw new UsageError('the client secret file is empty');
        const defaultRole =
          typeof values['default-role'] === 'string' ? values['default-role'] : 'viewer';
        if (defaultRole !== 'refuse') role(defaultRole);
        const people = settingsFromEnv().people;
        const settings = new OrganizationSettingsService(
          store,
          systemClock,
          people.sessionDefaults ?? DEFAULT_SESSION_LENGTHS,
          people.deploymentSso !== undefined,
        );
        const organization = await organizationOfAccount(store, accountId);
        const update = organizationSettingsUpdateSchema.parse({
          session_idle_minutes: organization.session_idle_minutes ?? SESSION_IDLE_MINUTES.default,
          session_max_hours: organization.session_max_hours ?? SESSION_MAX_HOURS.default,
          password_sign_in: organization.password_sign_in,
          sso: {
            issuer: required(values, 'issuer'),
            client_id: required(values, 'client-id'),
            client_secret: secret,
            email_domains: required(values, 'domains')
              .split(',')
              .map((domain) => domain.trim()),
            groups_claim:
              typeof values['groups-claim'] === 'string' ? values['groups-claim'] : 'groups',
            group_roles: groupRolesFrom(
              typeof values['group-roles'] === 'string' ? values['group-roles'] : undefined,
            ),
            default_role: defaultRole,
            jit: values.jit === true,
          },
        });
        return settings.setFor(accountId, null, update);
      }),
  },
  backup: {
    usage:
      'backup --to FILE [--force]   a checked copy of the SQLite database, made while the service runs',
    options: { to: { type: 'string' }, force: { type: 'boolean' } },
    run: (values, location) => {
      refusePostgres(location, 'pg_dump');
      return backupSqlite(location.dataDir, required(values, 'to'), {
        force: values.force === true,
      });
    },
  },
  restore: {
    usage:
      'restore --from FILE --data-dir DIR   a checked backup put in place in a new data directory',
    options: { from: { type: 'string' } },
    run: async (values, location) => {
      refusePostgres(location, 'pg_dump, then pg_restore,');
      if (typeof values['data-dir'] !== 'string')
        throw new UsageError('--data-dir is required: the new data directory to restore into');
      return restoreSqlite(required(values, 'from'), location.dataDir);
    },
  },
  ...configCommands,
};

const HELP = `Usage: provisioning <command> [options]   (the commands but config take --data-dir DIR; default DATA_DIR or ./data; with DATABASE_URL=postgres://... the data is in PostgreSQL instead. The config commands call a running service: PROVISIONING_URL, and PROVISIONING_API_KEY or --key-file FILE)\n\n${Object.values(
  COMMANDS,
)
  .map((command) => `  provisioning ${command.usage}`)
  .join('\n')}\n`;

export async function main(argv: readonly string[]): Promise<number> {
  const name = COMMANDS[argv[0] ?? ''] ? (argv[0] ?? '') : argv.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) {
    if (argv.length === 0 || argv.includes('--help')) {
      process.stdout.write(HELP);
      return 0;
    }
    process.stderr.write(
      `provisioning: unknown command "${argv.join(' ')}"; see provisioning --help\n`,
    );
    return 2;
  }
  const rest = argv.slice(name.split(' ').length);
  if ('config' in command) return runConfigCommand(command.config, rest, processIo());
  try {
    const { values } = parseArgs({
      args: [...rest],
      options: { ...COMMON, ...command.options },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(`Usage: provisioning ${command.usage}\n`);
      return 0;
    }
    const settings = settingsFromEnv();
    const location: StoreLocation = {
      ...settings,
      ...(typeof values['data-dir'] === 'string' ? { dataDir: values['data-dir'] } : {}),
    };
    const output = await command.run(values, location);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`provisioning ${name}: ${message.split('\n')[0] ?? message}\n`);
    return error instanceof UsageError ||
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
      ? 2
      : 1;
  }
}
