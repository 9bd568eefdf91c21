import request from 'supertest';
import { RunningApp, startManagementApi } from '../support/apps';
import { createOrganization, createTenant } from '../support/fixtures';

describe('management API smoke', () => {
  let api: RunningApp;
  beforeAll(async () => {
    api = await startManagementApi();
  });
  afterAll(() => api.close());

  it('reads and updates an organization', async () => {
    const tenant = await createTenant(api.url);
    const org = await createOrganization(api.url, tenant);
    const read = await request(api.url)
      .get(`/api/v2/organization/${org.organizationId}`)
      .set('Authorization', `Bearer ${tenant.apiKey}`)
      .expect(200);
    expect(read.body.id).toBe(org.organizationId);
    const updated = await request(api.url)
      .post(`/api/v2/organization/${org.organizationId}`)
      .set('Authorization', `Bearer ${tenant.apiKey}`)
      .send({ name: 'Renamed' })
      .expect(200);
    expect(updated.body.name).toBe('Renamed');
  });
});
