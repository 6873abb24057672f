/**
 * The Sign-in settings as a form holds them (text as typed, group -> role as rows) and the
 * body they become, which the contract's schema checks before it leaves. The client secret
 * is write-only: the form starts empty, and empty keeps the secret set before.
 */
import { ROLES } from '../../../../contract/auth-status';
import {
  DEFAULT_ROLE_REFUSE,
  SESSION_IDLE_MINUTES,
  SESSION_MAX_HOURS,
  type OrganizationSettings,
  type OrganizationSettingsUpdate,
} from '../../../../contract/people';
import { z } from '../../../../contract/zod';

function wholeNumberIn(range: { min: number; max: number }) {
  return z.string().check(
    z.trim(),
    z.refine(
      (text) => /^\d+$/.test(text) && Number(text) >= range.min && Number(text) <= range.max,
      `Enter a whole number from ${range.min} to ${range.max}.`,
    ),
  );
}

const DOMAIN = /^[a-z0-9.-]+\.[a-z]{2,}$/;

export function domainsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== '');
}

export const signInSettingsFormSchema = z
  .object({
    idleMinutes: wholeNumberIn(SESSION_IDLE_MINUTES),
    maxHours: wholeNumberIn(SESSION_MAX_HOURS),
    passwordSignIn: z.boolean(),
    ssoEnabled: z.boolean(),
    issuer: z.string().check(z.trim()),
    clientId: z.string().check(z.trim()),
    clientSecret: z.string(),
    emailDomains: z.string(),
    groupsClaim: z.string().check(z.trim()),
    groupRoles: z.array(z.object({ group: z.string().check(z.trim()), role: z.enum(ROLES) })),
    defaultRole: z.enum([...ROLES, DEFAULT_ROLE_REFUSE]),
    jit: z.boolean(),
  })
  .check(
    z.superRefine((values, context) => {
      const issue = (path: string, message: string) =>
        context.issues.push({ code: 'custom', input: values, path: [path], message });
      if (!values.ssoEnabled) return;
      if (!URL.canParse(values.issuer) || !/^https?:/.test(values.issuer)) {
        issue('issuer', 'Enter the issuer URL, such as https://acme.okta.com.');
      }
      if (values.clientId === '') issue('clientId', 'Enter the client id.');
      const bad = domainsOf(values.emailDomains).filter((domain) => !DOMAIN.test(domain));
      if (bad.length > 0) issue('emailDomains', `Not a domain: ${bad.join(', ')}.`);
      values.groupRoles.forEach((row, index) => {
        if (row.group === '') {
          context.issues.push({
            code: 'custom',
            input: values,
            path: ['groupRoles', index, 'group'],
            message: 'Enter the group name, or remove the row.',
          });
        }
      });
    }),
  );

export type SignInSettingsFormInput = z.input<typeof signInSettingsFormSchema>;
export type SignInSettingsFormValues = z.output<typeof signInSettingsFormSchema>;

export function formValuesOf(settings: OrganizationSettings): SignInSettingsFormInput {
  const sso = settings.sso;
  return {
    idleMinutes: String(settings.session_idle_minutes),
    maxHours: String(settings.session_max_hours),
    passwordSignIn: settings.password_sign_in,
    ssoEnabled: sso !== null,
    issuer: sso?.issuer ?? '',
    clientId: sso?.client_id ?? '',
    clientSecret: '',
    emailDomains: sso?.email_domains.join(', ') ?? '',
    groupsClaim: sso?.groups_claim ?? 'groups',
    groupRoles: Object.entries(sso?.group_roles ?? {}).map(([group, role]) => ({ group, role })),
    defaultRole: sso?.default_role ?? 'viewer',
    jit: sso?.jit ?? false,
  };
}

export function updateOf(values: SignInSettingsFormValues): OrganizationSettingsUpdate {
  return {
    session_idle_minutes: Number(values.idleMinutes),
    session_max_hours: Number(values.maxHours),
    password_sign_in: values.passwordSignIn,
    sso: values.ssoEnabled
      ? {
          issuer: values.issuer,
          client_id: values.clientId,
          // Empty keeps the secret set before (it is never read back).
          ...(values.clientSecret === '' ? {} : { client_secret: values.clientSecret }),
          email_domains: domainsOf(values.emailDomains),
          groups_claim: values.groupsClaim,
          group_roles: Object.fromEntries(values.groupRoles.map((row) => [row.group, row.role])),
          default_role: values.defaultRole,
          jit: values.jit,
        }
      : null,
  };
}

/** Where the server's field errors go (its JSON pointers to the body). */
export const FIELD_OF_PATH = {
  '/session_idle_minutes': 'idleMinutes',
  '/session_max_hours': 'maxHours',
  '/password_sign_in': 'passwordSignIn',
  '/sso/issuer': 'issuer',
  '/sso/client_id': 'clientId',
  '/sso/client_secret': 'clientSecret',
  '/sso/email_domains': 'emailDomains',
  '/sso/groups_claim': 'groupsClaim',
  '/sso/default_role': 'defaultRole',
} as const;
