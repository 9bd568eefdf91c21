import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppShell } from './layout/app-shell';
import { HomeRedirect } from './layout/home-redirect';
import { TenantLayout } from './layout/tenant-layout';
import { NotFoundPage } from './pages/not-found-page';
import { ApiKeysPage } from './pages/api-keys/api-keys-page';
import { ApplicationsPage } from './pages/applications/applications-page';
import { IntegrationPage } from './pages/applications/integration-page';
import { AuditLogPage } from './pages/audit-log/audit-log-page';
import { LoginActivityPage } from './pages/login-activity/login-activity-page';
import { MembersPage } from './pages/members/members-page';
import { NotAMemberPage } from './pages/sign-in/not-a-member-page';
import { SignInPage } from './pages/sign-in/sign-in-page';
import { OrganizationLayout } from './pages/organizations/organization-layout';
import { OrganizationSettingsPage } from './pages/organizations/organization-settings-page';
import { OrganizationsPage } from './pages/organizations/organizations-page';
import { OverviewPage } from './pages/overview/overview-page';
import { UserPage } from './pages/users/user-page';
import { UsersPage } from './pages/users/users-page';
import { EndpointPage } from './pages/webhooks/endpoint-page';
import { WebhooksPage } from './pages/webhooks/webhooks-page';

/**
 * Every screen has a URL under /console. A tenant's screens live under /t/:tenantId, an
 * organization's under /t/:tenantId/organizations/:organizationId.
 */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { index: true, element: <HomeRedirect /> },
      { path: 'sign-in', element: <SignInPage /> },
      { path: 'no-tenant', element: <NotAMemberPage /> },
      {
        path: 't/:tenantId',
        element: <TenantLayout />,
        children: [
          { index: true, element: <Navigate to="overview" replace /> },
          { path: 'overview', element: <OverviewPage /> },
          { path: 'organizations', element: <OrganizationsPage /> },
          {
            path: 'organizations/:organizationId',
            element: <OrganizationLayout />,
            children: [
              { index: true, element: <Navigate to="applications" replace /> },
              { path: 'applications', element: <ApplicationsPage /> },
              { path: 'applications/:applicationId', element: <IntegrationPage /> },
              { path: 'users', element: <UsersPage /> },
              { path: 'users/:userId', element: <UserPage /> },
              { path: 'login-activity', element: <LoginActivityPage /> },
              { path: 'api-keys', element: <ApiKeysPage scope="organization" /> },
              { path: 'settings', element: <OrganizationSettingsPage /> },
            ],
          },
          { path: 'api-keys', element: <ApiKeysPage scope="tenant" /> },
          { path: 'webhooks', element: <WebhooksPage /> },
          { path: 'webhooks/:endpointId', element: <EndpointPage /> },
          { path: 'members', element: <MembersPage /> },
          { path: 'audit-log', element: <AuditLogPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createConsoleRouter() {
  return createBrowserRouter(routes, { basename: '/console' });
}
