import { readJsonFile, writePrivateJsonFile } from './json-file';

/** What the launcher prints, kept in .data/demo.json so that every start shows the same demo. */
export interface DemoData {
  tenantId: string;
  organizationId: string;
  applicationId: string;
  /** The demo tenant's API key: its secret is shown only when created, so it is kept here. */
  apiKey: string;
  clientId: string;
  clientSecret: string;
  callbackUrl: string;
  /** The demo tenant's owner: signs in to the console with this address. */
  ownerEmail: string;
}

export interface DemoSeedOptions {
  /** The management API's base, e.g. http://127.0.0.1:3000/api/v2. */
  managementUrl: string;
  platformApiKey: string;
  /** The demo tenant's owner (DEMO_OWNER_EMAIL, admin@example.com by default). */
  ownerEmail: string;
  file: string;
}

export const DEMO_ORIGIN = 'http://localhost:4000';
const DEMO_CALLBACK_URL = `${DEMO_ORIGIN}/callback`;

/**
 * Makes sure the demo tenant (with its owner), organization and web application exist: created
 * through the management API on the first start (as a user would create them), and on later starts
 * checked with the stored key, then created afresh if the database no longer has them (e.g. after
 * DATABASE_URL changed).
 */
export async function ensureDemo(options: DemoSeedOptions): Promise<DemoSeedResult> {
  const stored = await readJsonFile<DemoData>(options.file);
  if (stored) {
    const checked = await checkDemo(options.managementUrl, stored, options.ownerEmail);
    if (checked) {
      if (JSON.stringify(checked.demo) !== JSON.stringify(stored)) await writePrivateJsonFile(options.file, checked.demo);
      return checked;
    }
  }
  const demo = await createDemo(options);
  await writePrivateJsonFile(options.file, demo);
  return { demo, state: 'created' };
}

export interface DemoSeedResult {
  demo: DemoData;
  /** `unverified`: the management API refused the check for now (rate limit), so the stored data is used as it is. */
  state: 'created' | 'reused' | 'unverified';
}

/** The stored demo with its current client secret (it may have been rotated) and its owner, or null if it is gone. */
async function checkDemo(managementUrl: string, stored: DemoData, ownerEmail: string): Promise<DemoSeedResult | null> {
  const api = new ManagementClient(managementUrl, stored.apiKey);
  try {
    await api.get(`/organization/${stored.organizationId}`);
    const application = await api.get<{ clientId: string; clientSecret: string }>(
      `/organization/${stored.organizationId}/application/${stored.applicationId}?include=secret`,
    );
    await ensureOwner(api, ownerEmail);
    return { demo: { ...stored, clientId: application.clientId, clientSecret: application.clientSecret, ownerEmail }, state: 'reused' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // 401: the key is unknown (another database); 404: the organization or application was deleted.
    if (error.status === 401 || error.status === 404) return null;
    // Restarting a few times within a minute can use up the demo tenant's plan budget.
    if (error.status === 429) return { demo: stored, state: 'unverified' };
    throw error;
  }
}

/** The owner of an older demo (or another DEMO_OWNER_EMAIL) becomes a member, invited like any other. */
async function ensureOwner(api: ManagementClient, ownerEmail: string): Promise<void> {
  const members = await api.get<{ data: { email: string }[] }>('/tenant/member?limit=100');
  if (!members.data.some((member) => member.email === ownerEmail.toLowerCase()))
    await api.post('/tenant/member', { email: ownerEmail, role: 'owner' });
}

async function createDemo(options: DemoSeedOptions): Promise<DemoData> {
  const platform = new ManagementClient(options.managementUrl, options.platformApiKey);
  const { tenant, apiKey } = await platform.post<{ tenant: { id: string }; apiKey: { key: string } }>('/tenant', {
    name: 'Demo',
    plan: 'pro',
    ownerEmail: options.ownerEmail,
  });
  const api = new ManagementClient(options.managementUrl, apiKey.key);
  const organization = await api.post<{ id: string }>('/organization', {
    name: 'Demo organization',
    whitelistDomains: [DEMO_ORIGIN],
  });
  const application = await api.post<{ id: string; clientId: string; clientSecret: string }>(
    `/organization/${organization.id}/application`,
    { name: 'Demo web app', type: 'web', callbackUrls: [DEMO_CALLBACK_URL] },
  );
  return {
    tenantId: tenant.id,
    organizationId: organization.id,
    applicationId: application.id,
    apiKey: apiKey.key,
    clientId: application.clientId,
    clientSecret: application.clientSecret,
    callbackUrl: DEMO_CALLBACK_URL,
    ownerEmail: options.ownerEmail,
  };
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    method: string,
    path: string,
    body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 500)}`);
    this.name = 'ApiError';
  }
}

class ManagementClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  get<T>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiError(response.status, method, path, text);
    return JSON.parse(text) as T;
  }
}
