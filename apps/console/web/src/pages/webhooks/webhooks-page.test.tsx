import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiAnswer, type ApiCall, PAGE, problem, renderPage } from '../../test-support/render-page';
import { WebhooksPage } from './webhooks-page';

type Endpoint = components['schemas']['WebhookEndpointResponse'];
type CreatedEndpoint = components['schemas']['CreatedWebhookEndpointResponse'];

const ORG = '33333333-3333-4333-8333-333333333333';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const endpoint = (overrides: Partial<Endpoint> = {}): Endpoint => ({
  id: 'e1',
  organizationId: null,
  url: 'https://api.example.com/hooks',
  description: 'Creates accounts in our CRM',
  eventTypes: [],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

/** The list page; the organizations (for "Of" and the form's select) answer one, Acme Books. */
function open(role: 'viewer' | 'admin' | 'owner', api: (call: ApiCall) => ApiAnswer | undefined) {
  return renderPage(<WebhooksPage />, {
    pattern: '/t/:tenantId/webhooks',
    path: '/t/:tenantId/webhooks',
    role,
    api: (call) =>
      api(call) ??
      (call.path === '/api/v2/organization' ? { body: { data: [{ id: ORG, name: 'Acme Books' }], nextCursor: null } } : { body: PAGE }),
  });
}

describe('WebhooksPage', () => {
  it('lists the endpoints with their events, organization and status, each linking to its page', async () => {
    const page = open('viewer', (call) =>
      call.path === '/api/v2/tenant/webhook_endpoint'
        ? {
            body: {
              data: [
                endpoint(),
                endpoint({
                  id: 'e2',
                  url: 'https://books.example.com/sesame',
                  description: null,
                  organizationId: ORG,
                  eventTypes: ['user.created', 'user.signed_in'],
                  enabled: false,
                }),
                endpoint({ id: 'e3', url: 'https://dead.example.com/', enabled: false, disabledReason: 'failing' }),
              ],
              nextCursor: null,
            },
          }
        : undefined,
    );
    const rows = await screen.findAllByRole('row');
    expect(within(rows[1]).getByRole('link', { name: 'https://api.example.com/hooks' })).toHaveAttribute(
      'href',
      `/t/${page.tenantId}/webhooks/e1`,
    );
    expect(within(rows[1]).getByText('Creates accounts in our CRM')).toBeInTheDocument();
    expect(within(rows[1]).getByText('All events')).toBeInTheDocument();
    expect(within(rows[1]).getByText('All: the whole tenant')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Enabled')).toBeInTheDocument();
    expect(within(rows[2]).getByText('user.created, user.signed_in')).toBeInTheDocument();
    expect(await within(rows[2]).findByText('Acme Books')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Disabled')).toBeInTheDocument();
    expect(within(rows[3]).getByText('Disabled: failing')).toBeInTheDocument();
    // A viewer reads, and is offered no change.
    expect(screen.queryByRole('button', { name: 'Add endpoint' })).not.toBeInTheDocument();
  });

  it('says so when there is none', async () => {
    open('admin', () => undefined);
    expect(await screen.findByText('No webhook endpoints yet')).toBeInTheDocument();
  });

  it('adds an endpoint for some event types, and shows its secret once, never again after it is dismissed', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const log = vi.spyOn(console, 'log');
    let endpoints: Endpoint[] = [];
    const page = open('admin', (call) => {
      if (call.path !== '/api/v2/tenant/webhook_endpoint') return undefined;
      if (call.method === 'POST') {
        const created: CreatedEndpoint = { ...endpoint({ ...(call.body as Partial<Endpoint>) }), secret: SECRET };
        endpoints = [endpoint({ ...(call.body as Partial<Endpoint>) })];
        return { status: 201, body: created };
      }
      return { body: { data: endpoints, nextCursor: null } };
    });
    await screen.findByText('No webhook endpoints yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const form = screen.getByRole('form', { name: 'Add an endpoint' });
    await userEvent.type(within(form).getByLabelText('URL'), 'https://crm.example.com/hooks');
    await userEvent.type(within(form).getByLabelText('Description (optional)'), 'CRM sync');
    expect(within(form).getByLabelText('All events, including types added later')).toBeChecked();
    await userEvent.click(within(form).getByLabelText('Only the events checked'));
    await userEvent.click(within(form).getByLabelText(/^user\.created/));
    await userEvent.click(within(form).getByLabelText(/^member\.added/));
    await userEvent.selectOptions(await within(form).findByLabelText('Events of'), 'Acme Books only');
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }));

    const dialog = await screen.findByRole('dialog', { name: 'Endpoint added: its signing secret' });
    expect(within(dialog).getByText(SECRET)).toBeInTheDocument();
    expect(within(dialog).getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy the signing secret' })).toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://crm.example.com/hooks',
      description: 'CRM sync',
      eventTypes: ['user.created', 'member.added'],
      organizationId: ORG,
    });

    await userEvent.click(within(dialog).getByRole('button', { name: 'I have stored the secret' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(page.location()).not.toContain(SECRET);
    expect(
      JSON.stringify(
        page.queryClient
          .getMutationCache()
          .getAll()
          .map((mutation) => mutation.state.data),
      ),
    ).not.toContain(SECRET);
    expect(setItem).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(await screen.findByRole('link', { name: 'https://crm.example.com/hooks' })).toBeInTheDocument();
    setItem.mockRestore();
    log.mockRestore();
  });

  it('sends every event type when All events stays chosen', async () => {
    const page = open('owner', (call) => (call.method === 'POST' ? { status: 201, body: { ...endpoint(), secret: SECRET } } : undefined));
    await userEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    await userEvent.type(screen.getByLabelText('URL'), 'https://api.example.com/hooks');
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await screen.findByRole('dialog');
    expect(page.calls.find((call) => call.method === 'POST')?.body).toEqual({ url: 'https://api.example.com/hooks', eventTypes: [] });
  });

  it("shows the API's refusal of the URL under the URL", async () => {
    open('admin', (call) => (call.method === 'POST' ? problem(400, 'webhook_url_not_allowed', 'url must use https') : undefined));
    await userEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    await userEvent.type(screen.getByLabelText('URL'), 'http://crm.example.com/hooks');
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const url = screen.getByLabelText('URL');
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveAccessibleDescription('https, on a public address. Sesame POSTs each event there, signed. Must use https');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Another URL is not what the API refused.
    await userEvent.type(url, 's');
    expect(url).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByText('Must use https')).not.toBeInTheDocument();
  });

  it('asks for a URL, and for an event type when only some are wanted, before sending anything', async () => {
    const page = open('admin', () => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    await userEvent.click(screen.getByLabelText('Only the events checked'));
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Enter the https URL that receives the events.')).toBeInTheDocument();
    expect(screen.getByText('Check at least one event, or choose All events.')).toBeInTheDocument();
    expect(page.calls.some((call) => call.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });
});
