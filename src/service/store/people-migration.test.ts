/**
 * A SQLite file made before people signed in upgrades in place: every account becomes an
 * organization of its own, every user a person and a membership, and a key that managed API
 * keys keeps managing client keys, webhooks and the policy (and members, for an admin's).
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase } from './database';
import { MIGRATIONS } from './migrations';
import { SqliteStore } from './sqlite-store';
import { hashSecret } from '../domain/api-key-secrets';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const AT = '2026-11-22T10:00:00.000Z';
const PEOPLE_MIGRATION = MIGRATIONS.findIndex((migration) => migration.name.startsWith('people'));

function fileBeforePeople(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, DATABASE_FILE));
  MIGRATIONS.slice(0, PEOPLE_MIGRATION).forEach((migration) => db.exec(migration.sqlite));
  db.pragma(`user_version = ${PEOPLE_MIGRATION}`);
  db.prepare(
    "INSERT INTO accounts (id, name, account_type, idp_organization_id, created_at) VALUES ('acc_1', 'Acme', 'standard', 'org_1', ?)",
  ).run(AT);
  const user = db.prepare(
    "INSERT INTO users (id, account_id, email, role, idp_user_id, created_at) VALUES (?, 'acc_1', ?, ?, ?, ?)",
  );
  user.run('usr_ADMIN', 'ana@acme.com', 'admin', 'idp_1', AT);
  user.run('usr_EDITOR', 'bo@acme.com', 'editor', 'idp_2', AT);
  const key = db.prepare(
    "INSERT INTO api_keys (id, account_id, user_id, name, key_hash, obfuscated_value, permissions, created_at) VALUES (?, 'acc_1', ?, ?, ?, 'sk_…', ?, ?)",
  );
  key.run(
    'key_ADMIN',
    'usr_ADMIN',
    'admin key',
    hashSecret('admin'),
    '["config:read","config:write","config:publish","api_keys:manage","audit:read"]',
    AT,
  );
  key.run(
    'key_EDITOR',
    'usr_EDITOR',
    'editor key',
    hashSecret('editor'),
    '["config:read","config:write"]',
    AT,
  );
  db.close();
}

describe('the people migration', () => {
  it('makes organizations, people and memberships, and keeps every key working', async () => {
    expect(PEOPLE_MIGRATION).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'provisioning-people-migration-'));
    dataDir = dir;
    fileBeforePeople(dir);

    const store = new SqliteStore(openDatabase(dir));
    try {
      expect(await store.getOrganization('org_1')).toMatchObject({
        name: 'Acme',
        password_sign_in: true,
        sso: null,
      });
      const admin = await store.findPrincipalByKeyHash(hashSecret('admin'));
      expect(admin?.user).toMatchObject({
        id: 'usr_ADMIN',
        person_id: 'per_ADMIN',
        removed_at: null,
      });
      expect(admin?.permissions).toEqual([
        'config:read',
        'config:write',
        'config:publish',
        'api_keys:manage',
        'audit:read',
        'client_keys:manage',
        'webhooks:manage',
        'policy:manage',
        'members:manage',
      ]);
      const editor = await store.findPrincipalByKeyHash(hashSecret('editor'));
      expect(editor?.permissions).toEqual(['config:read', 'config:write']);
      expect(await store.getPerson('per_EDITOR')).toMatchObject({
        organization_id: 'org_1',
        email: 'bo@acme.com',
        password_hash: null,
        issuer: null,
      });
      expect((await store.membershipsOf('per_ADMIN')).map((user) => user.id)).toEqual([
        'usr_ADMIN',
      ]);
      expect(await store.firstAccountOf('org_1')).toBe('acc_1');
      // Environments: the one account is production, unprotected; its first admin owns it.
      expect(await store.getAccount('acc_1')).toMatchObject({
        account_type: 'production',
        protected: false,
        organization_id: 'org_1',
      });
      expect(await store.organizationOwners('org_1')).toEqual(['per_ADMIN']);
      expect(await store.isOrganizationOwner('org_1', 'per_EDITOR')).toBe(false);
    } finally {
      await store.close();
    }
  });
});
