/** What the `/signed-in` popup tells the page that is waiting for the person to sign in again. */
export const SIGNED_IN_MESSAGE = 'provisioning-console:signed-in';
export const SIGNED_IN_CHANNEL = 'provisioning-console.sign-in';

export function isSignedInMessage(data: unknown): boolean {
  return (
    typeof data === 'object' && data !== null && 'type' in data && data.type === SIGNED_IN_MESSAGE
  );
}
