import { useForm } from 'react-hook-form';
import { Navigate, useSearchParams } from 'react-router';
import { isProblem } from '../../api/problem';
import { useSession, useSignIn } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { ProblemMessage } from '../../components/problem-message';
import { Loading } from '../../components/states';
import { CheckInbox } from './check-inbox';

/** What the callback's `sign_in_error` codes mean for the person. */
const SIGN_IN_ERRORS: Record<string, string> = {
  login_link_expired: 'That sign-in link has expired. Ask for a new one.',
  login_link_used: 'That sign-in link has already been used. Ask for a new one.',
  access_denied: 'This account is blocked.',
  invalid_state: 'The sign-in was started in another browser, or too long ago. Ask for a new link here.',
};

/** Sign in: the e-mail form, which starts Sesame's own login link, then "check your inbox". */
export function SignInPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const signIn = useSignIn();
  const form = useForm<{ email: string }>({ defaultValues: { email: '' } });

  if (session.isPending) return <Loading />;
  if (session.data?.signedIn) return <Navigate to="/" replace />;
  if (signIn.isSuccess) return <CheckInbox started={signIn.data} onRestart={() => signIn.reset()} />;

  const callbackError = params.get('sign_in_error');
  const fieldError = isProblem(signIn.error, 'validation_failed')
    ? signIn.error.messagesFor('email').join(' ') || signIn.error.message
    : null;
  return (
    <main id="main" className="narrow">
      <PageHeader title="Sign in to the console" description="We e-mail you a sign-in link. No password." />
      {params.get('session') === 'ended' && (
        <p className="notice" role="status">
          Your session ended. Sign in again to go back where you were.
        </p>
      )}
      {callbackError && (
        <p className="problem" role="alert">
          {SIGN_IN_ERRORS[callbackError] ?? 'The sign-in did not work. Try again.'}
        </p>
      )}
      <form className="card" noValidate onSubmit={form.handleSubmit(({ email }) => signIn.mutate(email.trim()))}>
        <div className="field">
          <label htmlFor="email">E-mail address</label>
          <input
            id="email"
            type="email"
            autoComplete="email"
            aria-invalid={Boolean(form.formState.errors.email || fieldError)}
            aria-describedby="email-error"
            {...form.register('email', { required: 'Enter your e-mail address.' })}
          />
          <p id="email-error" className="field-error">
            {form.formState.errors.email?.message ?? fieldError}
          </p>
        </div>
        {!fieldError && <ProblemMessage error={signIn.error} />}
        <button type="submit" className="button button-primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Sending…' : 'E-mail me a sign-in link'}
        </button>
      </form>
    </main>
  );
}
