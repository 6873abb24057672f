import { useEffect, useRef } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { useNavigationGuard } from '../../../lib/navigation';

/**
 * Unsaved edits: leaving the page inside the console asks first ("Leave without saving?"),
 * and closing or reloading the tab gets the browser's own prompt.
 */
export function LeaveGuard({
  when,
  bypass,
}: {
  when: boolean;
  /** True while the page itself moves on (after a save or a publish). */
  bypass: { readonly current: boolean };
}) {
  const stay = useRef<HTMLButtonElement>(null);
  const blocker = useNavigationGuard(
    ({ currentLocation, nextLocation }) =>
      when && !bypass.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  const blocked = blocker.state === 'blocked';
  return (
    <Dialog
      open={blocked}
      onClose={() => blocker.reset()}
      title="Leave without saving?"
      initialFocus={stay}
    >
      <p>Your edits to this config are not saved. If you leave, they are lost.</p>
      <div className="dialog-actions">
        <Button variant="danger" onClick={() => blocker.proceed()}>
          Leave
        </Button>
        <Button ref={stay} onClick={() => blocker.reset()}>
          Stay
        </Button>
      </div>
    </Dialog>
  );
}
