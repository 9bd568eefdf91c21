import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiAnswer, type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { EndpointPage } from './endpoint-page';

type Endpoint = components['schemas']['WebhookEndpointResponse'];
type Delivery = components['schemas']['WebhookDeliveryResponse'];

const BASE = '/api/v2/tenant/webhook_endpoint/e1';
const SECRET = 'whsec_NewSecretValue0123456789abcdef';
const BODY = '{"type":"ping","timestamp":"2026-11-02T10:00:00.000Z","data":{"endpointId":"e1"}}';

const endpoint = (overrides: Partial<Endpoint> = {}): Endpoint => ({
  id: 'e1',
  organizationId: null,
  url: 'https://api.example.com/hooks',
  description: 'Creates accounts in our CRM',
  eventTypes: ['user.created'],
  enabled: true,
  disabledReason: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const delivery = (overrides: Partial<Delivery> = {}): Delivery => ({
  id: 'd1',
  eventId: 'ev1',
  type: 'ping',
  requestBody: BODY,
  status: 'succeeded',
  attempts: 1,
  createdAt: '2026-11-02T10:00:00.000Z',
  finishedAt: '2026-11-02T10:00:01.000Z',
  attemptLog: [{ attemptedAt: '2026-11-02T10:00:01.000Z', durationMs: 42, responseStatus: 200, responseExcerpt: 'ok', error: null }],
  ...overrides,
});

const FAILED = delivery({
  id: 'd2',
  eventId: 'ev2',
  type: 'user.created',
  status: 'failed',
  attempts: 2,
  attemptLog: [
    { attemptedAt: '2026-11-02T10:05:00.000Z', durationMs: 10_000, responseStatus: null, responseExcerpt: null, error: 'timed out' },
    { attemptedAt: '2026-11-02T10:00:05.000Z', durationMs: 31, responseStatus: 500, responseExcerpt: 'not now', error: null },
  ],
});

/** The console's answer to the "confirm it's you" dialog's new sign-in. */
const SIGN_IN_STARTED: ApiAnswer = {
  body: {
    email: 'ada@example.com',
    loginAttemptId: 'a1',
    sentence: 'Blue otters sing',
    approvalNumber: '42',
    allowedDate: '2026-11-27T10:00:00.000Z',
    message: 'Check your inbox',
  },
};

/** The endpoint's page; unanswered calls get the endpoint, or its deliveries. */
function open(role: 'viewer' | 'admin' | 'owner', api: (call: ApiCall) => ApiAnswer | undefined, deliveries: Delivery[] = []) {
  return renderPage(<EndpointPage />, {
    pattern: '/t/:tenantId/webhooks/:endpointId',
    path: '/t/:tenantId/webhooks/e1',
    role,
    api: (call) =>
      api(call) ?? (call.path === `${BASE}/delivery` ? { body: { data: deliveries, nextCursor: null } } : { body: endpoint() }),
  });
}

describe('EndpointPage', () => {
  it('shows the endpoint and its deliveries: status, attempts, the request body and every try', async () => {
    open('viewer', () => undefined, [delivery(), FAILED]);
    expect(screen.getByRole('heading', { name: 'Webhook endpoint' })).toBeInTheDocument();
    const details = await screen.findByRole('region', { name: 'Endpoint' });
    expect(within(details).getByText('https://api.example.com/hooks')).toBeInTheDocument();
    expect(within(details).getByText('Creates accounts in our CRM')).toBeInTheDocument();
    expect(within(details).getByText('user.created')).toBeInTheDocument();
    expect(within(details).getByText('Enabled')).toBeInTheDocument();

    const [ping, failed] = await screen.findAllByRole('listitem', { name: /ping|user\.created/ });
    expect(within(ping).getByText('Succeeded')).toBeInTheDocument();
    expect(within(ping).getByText('1 attempt')).toBeInTheDocument();
    expect(within(ping).getByText('Last answer 200 after 42 ms')).toBeInTheDocument();
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('2 attempts')).toBeInTheDocument();
    expect(within(failed).getByText('No answer after 10000 ms')).toBeInTheDocument();

    await userEvent.click(within(failed).getByText('Request and answers'));
    expect(within(failed).getByText(/"endpointId": "e1"/)).toBeInTheDocument();
    const tries = within(failed).getAllByRole('row');
    expect(within(tries[1]).getByText('No answer')).toBeInTheDocument();
    expect(within(tries[1]).getByText('timed out')).toBeInTheDocument();
    expect(within(tries[1]).getByText('10000 ms')).toBeInTheDocument();
    expect(within(tries[2]).getByText('500')).toBeInTheDocument();
    expect(within(tries[2]).getByText('not now')).toBeInTheDocument();
    expect(within(tries[2]).getByText('31 ms')).toBeInTheDocument();
  });

  it('names the organization an endpoint is limited to', async () => {
    const page = open('viewer', (call) =>
      call.path === BASE
        ? { body: endpoint({ organizationId: 'org-1' }) }
        : call.path === '/api/v2/organization/org-1'
          ? { body: { id: 'org-1', name: 'Acme Books' } }
          : undefined,
    );
    expect(await screen.findByRole('link', { name: 'Acme Books' })).toHaveAttribute('href', `/t/${page.tenantId}/organizations/org-1`);
  });

  it('shows a viewer no control that changes anything', async () => {
    open('viewer', () => undefined, [delivery(), FAILED]);
    await screen.findAllByRole('listitem', { name: /ping/ });
    expect(screen.queryByRole('button', { name: /Send test event|Edit|Disable|Enable|Rotate|Delete|Redeliver/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delete this endpoint' })).not.toBeInTheDocument();
  });

  it('sends a test event and reads the deliveries again until its delivery has finished', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const states: Delivery[][] = [[], [], [delivery({ status: 'pending', attempts: 0, attemptLog: [] })], [delivery()]];
      let current: Delivery[] = [];
      const page = open('admin', (call) => {
        if (call.path === `${BASE}/test`) return { status: 202, body: { eventId: 'ev1' } };
        if (call.path === `${BASE}/delivery`) {
          current = states.shift() ?? current;
          return { body: { data: current, nextCursor: null } };
        }
        return undefined;
      });
      await screen.findByText('No deliveries yet');
      await userEvent.click(screen.getByRole('button', { name: 'Send test event' }));
      expect(await screen.findByText(/event is on its way/)).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2000);
      expect(await screen.findByText('Pending')).toBeInTheDocument();
      expect(screen.queryByText(/event is on its way/)).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Redeliver' })).not.toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2000);
      expect(await screen.findByText('Succeeded')).toBeInTheDocument();
      const reads = page.calls.filter((call) => call.path === `${BASE}/delivery`).length;
      await vi.advanceTimersByTimeAsync(6000);
      expect(page.calls.filter((call) => call.path === `${BASE}/delivery`)).toHaveLength(reads);
      expect(page.calls.filter((call) => call.path === `${BASE}/test`).map((call) => call.method)).toEqual(['POST']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('redelivers a finished delivery, and says so when it is still pending', async () => {
    const page = open(
      'admin',
      (call) =>
        call.path.endsWith('/redeliver')
          ? problem(409, 'webhook_delivery_pending', 'This delivery is still pending: it will be tried on its schedule')
          : undefined,
      [delivery(), FAILED],
    );
    const [, failed] = await screen.findAllByRole('listitem', { name: /ping|user\.created/ });
    await userEvent.click(within(failed).getByRole('button', { name: 'Redeliver' }));
    expect(await within(failed).findByRole('alert')).toHaveTextContent('This delivery is still pending');
    expect(page.calls.find((call) => call.method === 'POST')?.path).toBe(`${BASE}/delivery/d2/redeliver`);
  });

  it('disables and enables the endpoint, and explains one that Sesame disabled', async () => {
    let current = endpoint({ enabled: false, disabledReason: 'failing' });
    const page = open('admin', (call) => {
      if (call.path !== BASE) return undefined;
      if (call.method === 'POST') current = endpoint({ ...(call.body as Partial<Endpoint>) });
      return { body: current };
    });
    expect(await screen.findByText('Disabled: failing')).toBeInTheDocument();
    expect(screen.getByText(/Every try failed for days/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send test event' })).toHaveAccessibleDescription(/enable it to send it a test event/);
    await userEvent.click(screen.getByRole('button', { name: 'Enable' }));
    expect(await screen.findByText('Enabled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send test event' })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(page.calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([{ enabled: true }, { enabled: false }]);
  });

  it('edits the URL, description and event types', async () => {
    let current = endpoint();
    const page = open('admin', (call) => {
      if (call.path !== BASE) return undefined;
      if (call.method === 'POST') current = endpoint({ ...(call.body as Partial<Endpoint>) });
      return { body: current };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit the endpoint' });
    expect(within(form).getByLabelText('URL')).toHaveValue('https://api.example.com/hooks');
    expect(within(form).getByLabelText('Only the events checked')).toBeChecked();
    expect(within(form).getByLabelText(/^user\.created/)).toBeChecked();
    expect(within(form).queryByLabelText('Events of')).not.toBeInTheDocument();
    await userEvent.clear(within(form).getByLabelText('URL'));
    await userEvent.type(within(form).getByLabelText('URL'), 'https://api.example.com/v2/hooks');
    await userEvent.click(within(form).getByLabelText(/^login\.locked/));
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(screen.getByText('https://api.example.com/v2/hooks')).toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://api.example.com/v2/hooks',
      description: 'Creates accounts in our CRM',
      eventTypes: ['user.created', 'login.locked'],
    });
  });

  it('rotates the secret after a confirmation and a fresh sign-in, and shows the new one once', async () => {
    let signedInAgain = false;
    const page = open('owner', (call) => {
      if (call.path === `${BASE}/rotate_secret`)
        return signedInAgain
          ? { body: { secret: SECRET, previousSecretExpiresAt: '2031-03-02T10:00:00.000Z' } }
          : problem(403, 'reauthentication_required', 'Sign in again to do this.');
      if (call.path === '/api/sign_in') return SIGN_IN_STARTED;
      if (call.path === '/api/sign_in/status') return { body: { status: 'pending' } };
      if (call.path === '/api/sign_in/code') {
        signedInAgain = true;
        return { body: { status: 'completed' } };
      }
      return undefined;
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    expect(page.calls.some((call) => call.path.endsWith('/rotate_secret'))).toBe(false);
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Rotate secret' }),
    );

    const confirm = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await userEvent.type(within(confirm).getByLabelText(/6-digit code/), '123456');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Sign in with the code' }));

    const shown = await screen.findByRole('dialog', { name: 'The new signing secret' });
    expect(within(shown).getByText(SECRET)).toBeInTheDocument();
    // Until when the old secret signs too, as the API answered it.
    expect(shown.querySelector('time')?.getAttribute('datetime')).toBe('2031-03-02T10:00:00.000Z');
    expect(page.calls.filter((call) => call.path.endsWith('/rotate_secret'))).toHaveLength(2);
    await userEvent.click(within(shown).getByRole('button', { name: 'I have stored the secret' }));
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('deletes the endpoint after a confirmation', async () => {
    const page = open('admin', (call) => (call.method === 'DELETE' ? { status: 204 } : undefined));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete endpoint' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this endpoint?' });
    expect(page.calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete endpoint' }));
    // The page goes back to the list (a route this test does not mount).
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Webhook endpoint' })).not.toBeInTheDocument());
    expect(page.calls.find((call) => call.method === 'DELETE')?.path).toBe(BASE);
  });

  it('shows the API’s answer for an endpoint that is not there', async () => {
    open('admin', (call) => (call.path === BASE ? problem(404, 'not_found', 'No such webhook endpoint.') : undefined));
    expect(await screen.findByText('No such webhook endpoint.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send test event' })).not.toBeInTheDocument();
  });
});
