import { Link, NavLink, Outlet, useParams } from 'react-router';
import { useMembership } from '../../api/session';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/states';
import { useOrganization } from './organization-queries';

/** An organization's screens, as tabs under its name. */
export function OrganizationLayout() {
  const { tenantId } = useMembership();
  const organizationId = useParams().organizationId!;
  const organization = useOrganization(tenantId, organizationId);
  return (
    <QueryState query={organization}>
      {(data) => (
        <>
          <p className="breadcrumbs">
            <Link to={`/t/${tenantId}/organizations`}>Organizations</Link> / {data.name}
          </p>
          <PageHeader title={data.name} />
          <nav aria-label="Organization" className="tabs">
            <NavLink to="applications">Applications</NavLink>
            <NavLink to="users">Users</NavLink>
            <NavLink to="login-activity">Login activity</NavLink>
            <NavLink to="api-keys">API keys</NavLink>
            <NavLink to="settings">Settings</NavLink>
          </nav>
          <Outlet context={data} />
        </>
      )}
    </QueryState>
  );
}
