import { Navigate, NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router';
import { rememberReturnTo } from '../api/return-to';
import { type Membership, useSession, useSignOut } from '../api/session';
import { ProblemMessage } from '../components/problem-message';
import { ErrorState, Loading } from '../components/states';

/** A tenant's screens: only for its members; navigation, tenant switcher and sign-out around them. */
export function TenantLayout() {
  const { tenantId } = useParams();
  const location = useLocation();
  const session = useSession();
  if (session.isPending) return <Loading />;
  if (session.isError)
    return (
      <main id="main" className="narrow">
        <ErrorState error={session.error} retry={() => void session.refetch()} />
      </main>
    );
  if (!session.data.signedIn) {
    rememberReturnTo(location.pathname + location.search);
    return <Navigate to="/sign-in" replace />;
  }
  const membership = session.data.memberships.find((candidate) => candidate.tenantId === tenantId);
  if (!membership) return <Navigate to="/" replace />;
  return (
    <div className="layout">
      <aside className="sidebar">
        <TenantSwitcher memberships={session.data.memberships} current={membership} />
        <TenantNavigation membership={membership} />
        <SignedInAs email={session.data.email ?? ''} role={membership.role} />
      </aside>
      <main id="main" className="content" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

function TenantSwitcher({ memberships, current }: { memberships: Membership[]; current: Membership }) {
  const navigate = useNavigate();
  if (memberships.length === 1) return <p className="tenant-name">{current.tenantName}</p>;
  return (
    <div className="field">
      <label htmlFor="tenant-switcher">Tenant</label>
      <select id="tenant-switcher" value={current.tenantId} onChange={(event) => navigate(`/t/${event.target.value}/overview`)}>
        {memberships.map((membership) => (
          <option key={membership.tenantId} value={membership.tenantId}>
            {membership.tenantName} ({membership.role})
          </option>
        ))}
      </select>
    </div>
  );
}

function TenantNavigation({ membership }: { membership: Membership }) {
  const base = `/t/${membership.tenantId}`;
  return (
    <nav aria-label="Tenant">
      <ul className="nav">
        <li>
          <NavLink to={`${base}/overview`}>Overview</NavLink>
        </li>
        <li>
          <NavLink to={`${base}/organizations`}>Organizations</NavLink>
        </li>
        <li>
          <NavLink to={`${base}/api-keys`}>API keys</NavLink>
        </li>
        <li>
          <NavLink to={`${base}/webhooks`}>Webhooks</NavLink>
        </li>
        <li>
          <NavLink to={`${base}/members`}>Members</NavLink>
        </li>
        {membership.role !== 'viewer' && (
          <li>
            <NavLink to={`${base}/audit-log`}>Audit log</NavLink>
          </li>
        )}
      </ul>
    </nav>
  );
}

function SignedInAs({ email, role }: { email: string; role: string }) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="signed-in">
      <p>
        {email}
        <br />
        <span className="badge">{role}</span>
      </p>
      <button
        type="button"
        className="button button-small"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate(undefined, { onSuccess: () => navigate('/sign-in') })}
      >
        Sign out
      </button>
      <ProblemMessage error={signOut.error} />
    </div>
  );
}
