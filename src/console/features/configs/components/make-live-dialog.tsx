import { Suspense, type RefObject } from 'react';
import type { ConfigSummary } from '../../../../contract/configs';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { DiffView } from '../../../editor/lazy-monaco';
import { useDarkScheme } from '../../../editor/use-dark-scheme';
import { useTypedConfirmation } from '../../../components/type-to-confirm';
import { useActivateConfig } from '../api/activate-config';
import { LIVE, useConfig } from '../../../api/get-config';

interface MakeLiveDialogProps {
  config: ConfigSummary | null;
  onClose: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/** "Make <label> live?": what changes against the live config, then Make live or Cancel. */
export function MakeLiveDialog({ config, onClose, returnFocus }: MakeLiveDialogProps) {
  const activate = useActivateConfig();
  const typed = useTypedConfirmation(config !== null);
  const dark = useDarkScheme();
  const version = useConfig(config ? config.id : null);
  const live = useConfig(config ? LIVE : null);

  const close = () => {
    activate.reset();
    typed.reset();
    onClose();
  };

  const loadError = version.error ?? live.error;

  return (
    <ConfirmDialog
      open={config !== null}
      title={config ? `Make ${config.label} live?` : ''}
      confirmLabel="Make live"
      confirmVariant="primary"
      onConfirm={typed.guard(() => {
        if (!config) return;
        activate.mutate(config.id, {
          onSuccess: () => {
            notify(`${config.label} is now live.`);
            close();
          },
        });
      })}
      onClose={close}
      pending={activate.isPending}
      error={activate.error}
      failure={config ? `${config.label} was not made live.` : ''}
      returnFocus={returnFocus}
      wide
    >
      {config && (
        <p>
          {config.label} becomes the live config again
          {live.data ? `, in place of ${live.data.label}` : ''}. What changes:
        </p>
      )}
      {loadError ? (
        <p role="alert" className="alert alert-error">
          The changes could not be loaded. {describeError(loadError)}
        </p>
      ) : version.data && live.data ? (
        <Suspense fallback={<Spinner label="Loading the changes…" />}>
          <DiffView
            original={live.data.yaml}
            modified={{ text: version.data.yaml }}
            label={`Changes against the live config ${live.data.label}`}
            dark={dark}
            inline
            height="18rem"
          />
        </Suspense>
      ) : (
        <Spinner label="Loading the changes…" />
      )}
      {typed.field}
      {typed.alert}
    </ConfirmDialog>
  );
}
