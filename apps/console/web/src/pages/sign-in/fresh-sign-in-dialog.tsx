import { useIsMutating } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { handleFreshSignIn } from '../../api/fresh-sign-in';
import { signInCodeKey, type SignInStarted, useSession, useSignIn, useSignInStatus } from '../../api/session';
import { ApprovalNumber, CodeForm } from './check-inbox';
import { ProblemMessage } from '../../components/problem-message';

interface Request {
  confirmed: () => void;
  cancelled: () => void;
}

/**
 * "Confirm it's you": shown when a change needs a recent sign-in. It e-mails the signed-in member a
 * new sign-in and waits for it (the link, the link approved on another device, or the code typed
 * here); then the change is made again. Mounted once, by the app's frame.
 */
export function FreshSignInDialog() {
  const [request, setRequest] = useState<Request | null>(null);
  useEffect(
    () =>
      handleFreshSignIn(
        () =>
          new Promise<void>((resolve, reject) => {
            setRequest({
              confirmed: () => {
                setRequest(null);
                resolve();
              },
              cancelled: () => {
                setRequest(null);
                reject(new Error('cancelled'));
              },
            });
          }),
      ),
    [],
  );
  if (!request) return null;
  return <ConfirmIdentity request={request} />;
}

function ConfirmIdentity({ request }: { request: Request }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const email = useSession().data?.email ?? '';
  const signIn = useSignIn();
  const { mutate } = signIn;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    mutate(email);
  }, [mutate, email]);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onCancel={request.cancelled}>
      <h2 id={titleId}>Confirm it’s you</h2>
      <p>
        This change needs a recent sign-in. We e-mailed a new sign-in link to <strong>{email}</strong>.
      </p>
      {signIn.data && <WaitForSignIn started={signIn.data} onConfirmed={request.confirmed} />}
      <ProblemMessage error={signIn.error} />
      <div className="actions">
        <button type="button" className="button" onClick={request.cancelled}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

function WaitForSignIn({ started, onConfirmed }: { started: SignInStarted; onConfirmed: () => void }) {
  const status = useSignInStatus(started.loginAttemptId);
  // A code typed here also completes the sign-in, and the held status request may answer before the
  // code's answer has set the new session cookie: then the code's success is what confirms.
  const sendingCode = useIsMutating({ mutationKey: signInCodeKey(started.loginAttemptId) }) > 0;
  useEffect(() => {
    if (status.data === 'completed' && !sendingCode) onConfirmed();
  }, [status.data, sendingCode, onConfirmed]);
  return (
    <>
      <p>The e-mail shows this sentence:</p>
      <p className="sentence">{started.sentence}</p>
      <ApprovalNumber approvalNumber={started.approvalNumber} />
      <CodeForm loginAttemptId={started.loginAttemptId} onSignedIn={onConfirmed} />
      <p className="muted" role="status">
        Waiting for the link… this closes by itself.
      </p>
      <ProblemMessage error={status.error} />
    </>
  );
}
