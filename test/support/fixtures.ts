import request from 'supertest';
import { TEST_PLATFORM_API_KEY } from './test-env';

export interface TenantFixture {
  tenantId: string;
  apiKey: string;
}

export interface OrganizationFixture extends TenantFixture {
  organizationId: string;
}

export interface ApplicationFixture extends OrganizationFixture {
  applicationId: string;
  clientId: string;
  clientSecret: string | null;
}

let counter = 0;
const unique = (prefix: string) => `${prefix} ${process.pid}-${++counter}`;

/** Creates a tenant through the API with the platform key, as an operator would. */
export async function createTenant(managementUrl: string, plan = 'pro'): Promise<TenantFixture> {
  const response = await request(managementUrl)
    .post('/api/v2/tenant')
    .set('Authorization', `Bearer ${TEST_PLATFORM_API_KEY}`)
    .send({ name: unique('Tenant'), plan })
    .expect(201);
  return { tenantId: response.body.tenant.id, apiKey: response.body.apiKey.key };
}

export async function createOrganization(
  managementUrl: string,
  tenant: TenantFixture,
  body: Record<string, unknown> = {},
): Promise<OrganizationFixture> {
  const response = await request(managementUrl)
    .post('/api/v2/organization')
    .set('Authorization', `Bearer ${tenant.apiKey}`)
    .send({ name: unique('Organization'), whitelistDomains: ['http://localhost:4000'], ...body })
    .expect(201);
  return { ...tenant, organizationId: response.body.id };
}

export async function createApplication(
  managementUrl: string,
  organization: OrganizationFixture,
  body: Record<string, unknown> = {},
): Promise<ApplicationFixture> {
  const response = await request(managementUrl)
    .post(`/api/v2/organization/${organization.organizationId}/application`)
    .set('Authorization', `Bearer ${organization.apiKey}`)
    .send({ name: unique('Application'), type: 'web', ...body })
    .expect(201);
  return { ...organization, applicationId: response.body.id, clientId: response.body.clientId, clientSecret: response.body.clientSecret };
}

/** A web application of a new organization of a new pro tenant: what a test that only needs a client starts from. */
export async function createWebApplication(managementUrl: string): Promise<ApplicationFixture> {
  return createApplication(managementUrl, await createOrganization(managementUrl, await createTenant(managementUrl, 'pro')));
}
