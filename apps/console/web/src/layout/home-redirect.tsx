import { Navigate, useSearchParams } from 'react-router';
import { takeReturnTo } from '../api/return-to';
import { useSession } from '../api/session';
import { ErrorState, Loading } from '../components/states';

/** /console/: sign in, the page for people in no tenant, the page a lost session interrupted, or the first tenant's overview. */
export function HomeRedirect() {
  const session = useSession();
  const [params] = useSearchParams();
  if (session.isPending) return <Loading />;
  if (session.isError)
    return (
      <main id="main" className="narrow">
        <ErrorState error={session.error} retry={() => void session.refetch()} />
      </main>
    );
  const { signedIn, memberships } = session.data;
  const error = params.get('sign_in_error');
  if (!signedIn) return <Navigate to={error ? `/sign-in?sign_in_error=${encodeURIComponent(error)}` : '/sign-in'} replace />;
  if (memberships.length === 0) return <Navigate to="/no-tenant" replace />;
  return <Navigate to={takeReturnTo() ?? `/t/${memberships[0].tenantId}/overview`} replace />;
}
