import { Navigate, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { ProblemMessage } from '../../components/problem-message';
import { Loading } from '../../components/states';

/** Signed in, but a member of no tenant: say so, and nothing else. */
export function NotAMemberPage() {
  const session = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  if (session.isPending) return <Loading />;
  if (!session.data?.signedIn || session.data.memberships.length > 0) return <Navigate to="/" replace />;
  return (
    <main id="main" className="narrow">
      <PageHeader title="You are not a member of any tenant" />
      <div className="card">
        <p>
          You are signed in as <strong>{session.data.email}</strong>, but no tenant has invited this address. Ask an owner of your tenant to
          invite you from its Members page, then sign in again.
        </p>
        <button
          type="button"
          className="button"
          disabled={signOut.isPending}
          onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/sign-in') })}
        >
          Sign out
        </button>
        <ProblemMessage error={signOut.error} />
      </div>
    </main>
  );
}
