import { isProblem } from './problem';

/**
 * Changes that hand out access (client secrets, API keys, roles, removals) need a sign-in of the
 * last few minutes: the API refuses them with `reauthentication_required` otherwise. The console
 * then asks the person to confirm it is them (a new e-mailed sign-in, in a dialog) and makes the
 * call again. The dialog registers itself here; without it the refusal is shown as it is.
 */
type ConfirmIdentity = () => Promise<void>;

let confirmIdentity: ConfirmIdentity | null = null;

export function handleFreshSignIn(handler: ConfirmIdentity): () => void {
  confirmIdentity = handler;
  return () => {
    if (confirmIdentity === handler) confirmIdentity = null;
  };
}

/** Runs the call; when it needs a fresh sign-in, asks for one and runs it once more. Cancelling keeps the API's refusal. */
export async function withFreshSignIn<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isProblem(error, 'reauthentication_required') || !confirmIdentity) throw error;
    const confirmed = await confirmIdentity().then(
      () => true,
      () => false,
    );
    if (!confirmed) throw error;
    return call();
  }
}
