import { useForm } from 'react-hook-form';
import { type SignInStarted, type SignInStatus, useSessionFromOtherTabs, useSignInStatus, useSignInWithCode } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { ProblemMessage } from '../../components/problem-message';

/** What the waiting page says once the sign-in is over without signing this browser in. */
const ENDED: Partial<Record<SignInStatus, string>> = {
  completed: 'This sign-in was completed with its link. If that was on another device, ask for a new link to sign in here.',
  expired: 'This sign-in has expired. Ask for a new link.',
  locked: 'This sign-in was stopped after too many wrong codes. Ask for a new link.',
};

/**
 * After the form: the sentence (the e-mail shows it too), the approval number (only here: typed on
 * another device that opened the link, it signs this browser in), a field for the e-mail's code,
 * and a wait that signs in by itself.
 */
export function CheckInbox({ started, onRestart }: { started: SignInStarted; onRestart: () => void }) {
  const status = useSignInStatus(started.loginAttemptId);
  useSessionFromOtherTabs();
  const ended = status.data ? ENDED[status.data] : undefined;
  return (
    <main id="main" className="narrow">
      <PageHeader title="Check your inbox" />
      <div className="card">
        <p>{started.message}</p>
        <p>The e-mail shows this sentence. Go on only if they match:</p>
        <p className="sentence" data-testid="sentence">
          {started.sentence}
        </p>
        {ended ? (
          <p className="problem" role="alert">
            {ended}
          </p>
        ) : (
          <>
            <ApprovalNumber approvalNumber={started.approvalNumber} />
            <CodeForm loginAttemptId={started.loginAttemptId} />
            <p className="muted" role="status">
              Waiting for the link… this page signs you in by itself.
            </p>
          </>
        )}
        <ProblemMessage error={status.error} />
        <button type="button" className="button" onClick={onRestart}>
          Use another address
        </button>
      </div>
    </main>
  );
}

export function ApprovalNumber({ approvalNumber }: { approvalNumber: string }) {
  return (
    <div className="approval-number">
      <p id="approval-number-label">
        Opening the link on another device, such as your phone? Choose “Sign in on the device where you asked” there and type this number:
      </p>
      <strong aria-describedby="approval-number-label" data-testid="approval-number">
        {approvalNumber}
      </strong>
    </div>
  );
}

/** The e-mail's code; `onSignedIn` runs once it signed this browser in. */
export function CodeForm({ loginAttemptId, onSignedIn }: { loginAttemptId: string; onSignedIn?: () => void }) {
  const signIn = useSignInWithCode(loginAttemptId);
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const fieldError = form.formState.errors.code?.message;
  return (
    <form noValidate onSubmit={form.handleSubmit(({ code }) => signIn.mutate(code, { onSuccess: onSignedIn }))}>
      <div className="field">
        <label htmlFor="code">Or type the 6-digit code from the e-mail</label>
        <input
          id="code"
          className="code-input"
          inputMode="numeric"
          autoComplete="one-time-code"
          aria-invalid={Boolean(fieldError || signIn.error)}
          aria-describedby="code-error"
          {...form.register('code', { required: 'Enter the code from the e-mail.' })}
        />
        <p id="code-error" className="field-error">
          {fieldError}
        </p>
      </div>
      <ProblemMessage error={signIn.error} />
      <button type="submit" className="button button-primary" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in…' : 'Sign in with the code'}
      </button>
    </form>
  );
}
