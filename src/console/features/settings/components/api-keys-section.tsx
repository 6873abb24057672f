import { useRef, useState } from 'react';
import type { ApiKey } from '../../../../contract/api-keys';
import {
  hasPermission,
  permissionSchema,
  type AuthStatus,
  type Permission,
} from '../../../../contract/auth-status';
import { LoadMore } from '../../../components/load-more';
import { ManagedSection } from '../../../components/managed-section';
import { useNow } from '../../../lib/time';
import { useApiKeys } from '../api/get-api-keys';
import { ApiKeyTable } from './api-key-table';
import { CreateApiKeyForm } from './create-api-key-form';
import { RevokeApiKeyDialog } from './revoke-api-key-dialog';

/** The permissions of the caller's key that this console knows, in the contract's order. */
function ownPermissions(status: AuthStatus): Permission[] {
  return (status.permissions ?? []).flatMap((name) => {
    const parsed = permissionSchema.safeParse(name);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Key management, shown when the key holds api_keys:manage and the server offers
 * /api-keys (a 404 there hides the section).
 */
export function ApiKeysSection({ status }: { status: AuthStatus }) {
  const canManage = hasPermission(status, 'api_keys:manage');
  const keys = useApiKeys({ enabled: canManage });
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <ManagedSection
      title="API keys"
      allowed={canManage}
      query={keys}
      loading="Loading API keys…"
      failure="The API keys could not be loaded."
      headingRef={heading}
      dialog={
        <RevokeApiKeyDialog
          apiKey={revoking}
          keyInUseId={status.api_key_id}
          onClose={() => setRevoking(null)}
          returnFocus={heading}
        />
      }
    >
      {(list) => (
        <>
          <ApiKeyTable keys={list} now={now} onRevoke={setRevoking} />
          <LoadMore more={keys.more} what="keys" />
          <CreateApiKeyForm permissions={ownPermissions(status)} />
        </>
      )}
    </ManagedSection>
  );
}
