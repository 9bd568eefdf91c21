import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiCall, type ApiAnswer, problem, renderPage } from '../../test-support/render-page';
import { ApiKeysPage } from './api-keys-page';

type ApiKey = components['schemas']['ApiKeyResponse'];
type CreatedApiKey = components['schemas']['CreatedApiKeyResponse'];

const ORG = '22222222-2222-4222-8222-222222222222';
const SECRET = 'sk_Xb3kP9qLsecretvalue0123456789';

const key = (overrides: Partial<ApiKey> = {}): ApiKey => ({
  id: 'k1',
  name: 'CI deploys',
  prefix: 'sk_Ab12',
  organizationId: null,
  role: 'admin',
  createdBy: { type: 'member', id: 'm-self', name: 'ada@example.com' },
  lastUsedAt: null,
  revokedAt: null,
  createdAt: '2026-10-01T10:00:00.000Z',
  ...overrides,
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

function openTenant(role: 'viewer' | 'admin' | 'owner', api: (call: ApiCall) => ApiAnswer) {
  return renderPage(<ApiKeysPage scope="tenant" />, { pattern: '/t/:tenantId/api-keys', path: '/t/:tenantId/api-keys', role, api });
}

describe('ApiKeysPage', () => {
  it('lists keys with their prefix and whether they are revoked', async () => {
    const page = openTenant('admin', () => ({
      body: { data: [key(), key({ id: 'k2', name: 'Old', revokedAt: '2026-10-05T10:00:00.000Z' })], nextCursor: null },
    }));
    const rows = await screen.findAllByRole('row');
    expect(within(rows[1]).getByText('sk_Ab12…')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Active')).toBeInTheDocument();
    expect(within(rows[1]).getByRole('button', { name: 'Revoke CI deploys' })).toBeInTheDocument();
    expect(within(rows[2]).getByText('Revoked')).toBeInTheDocument();
    expect(within(rows[2]).queryByRole('button')).not.toBeInTheDocument();
    expect(page.calls[0].path).toBe('/api/v2/tenant/api_key');
  });

  it("uses the organization's keys in the organization scope", async () => {
    const page = renderPage(<ApiKeysPage scope="organization" />, {
      pattern: '/t/:tenantId/organizations/:organizationId/api-keys',
      path: `/t/:tenantId/organizations/${ORG}/api-keys`,
      role: 'admin',
      api: () => ({ body: { data: [], nextCursor: null } }),
    });
    expect(await screen.findByText('No API keys yet')).toBeInTheDocument();
    expect(page.calls[0].path).toBe(`/api/v2/organization/${ORG}/api_key`);
  });

  it('shows a new key once, and never again after it is dismissed', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const log = vi.spyOn(console, 'log');
    let keys: ApiKey[] = [];
    const page = openTenant('admin', (call) => {
      if (call.method === 'POST') {
        const created: CreatedApiKey = { ...key({ name: (call.body as { name: string }).name }), key: SECRET };
        keys = [key({ name: created.name })];
        return { status: 201, body: created };
      }
      return { body: { data: keys, nextCursor: null } };
    });
    await screen.findByText('No API keys yet');
    await userEvent.type(screen.getByLabelText('Name'), 'CI deploys');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));

    expect(await screen.findByText(SECRET)).toBeInTheDocument();
    expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the key CI deploys' })).toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'CI deploys', role: 'admin' });

    await userEvent.click(screen.getByRole('button', { name: 'I have stored the key' }));
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
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
    expect(localStorage.length + sessionStorage.length).toBe(0);
    expect(await screen.findByRole('button', { name: 'Revoke CI deploys' })).toBeInTheDocument();
    setItem.mockRestore();
    log.mockRestore();
  });

  it('shows a validation error next to the name field', async () => {
    openTenant('admin', (call) =>
      call.method === 'POST'
        ? problem(400, 'validation_failed', 'The request is not valid.', [
            { field: 'name', messages: ['name must be shorter than or equal to 200 characters'] },
          ])
        : { body: { data: [], nextCursor: null } },
    );
    await screen.findByText('No API keys yet');
    await userEvent.click(screen.getByLabelText('Name'));
    await userEvent.paste('x'.repeat(201));
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    const name = screen.getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription('Must be shorter than or equal to 200 characters');
  });

  it('asks for a name before sending anything', async () => {
    const page = openTenant('admin', () => ({ body: { data: [], nextCursor: null } }));
    await screen.findByText('No API keys yet');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Give the key a name, such as what will use it.')).toBeInTheDocument();
    expect(page.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('revokes a key after confirming', async () => {
    let revoked = false;
    const page = openTenant('admin', (call) => {
      if (call.method === 'DELETE') {
        revoked = true;
        return { status: 204 };
      }
      return { body: { data: [key(revoked ? { revokedAt: '2026-11-01T10:00:00.000Z' } : {})], nextCursor: null } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke CI deploys' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke key' }));
    expect(await screen.findByText('Revoked')).toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/v2/tenant/api_key/k1');
  });

  it('gives a viewer neither the form nor revoke buttons', async () => {
    openTenant('viewer', () => ({ body: { data: [key()], nextCursor: null } }));
    await screen.findByText('CI deploys');
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /create|revoke/i })).not.toBeInTheDocument();
  });

  it('shows each key’s role and creator, and offers an admin only the roles up to theirs', async () => {
    openTenant('admin', () => ({
      body: {
        data: [key(), key({ id: 'k2', name: 'Deploy bot', role: 'owner', createdBy: { type: 'api_key', id: 'k0', name: 'Bootstrap' } })],
        nextCursor: null,
      },
    }));
    const rows = await screen.findAllByRole('row');
    expect(within(rows[1]).getByText('admin')).toBeInTheDocument();
    expect(within(rows[1]).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(rows[2]).getByText('owner')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Bootstrap (API key)')).toBeInTheDocument();
    // An admin may not revoke an owner's key, nor give the owner role.
    expect(within(rows[2]).queryByRole('button', { name: 'Revoke Deploy bot' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['viewer', 'admin']);
    expect(screen.getByRole('radio', { name: /^Admin/ })).toBeChecked();
  });

  it('offers an owner every role for tenant keys, and at most admin for organization keys', async () => {
    openTenant('owner', () => ({ body: { data: [], nextCursor: null } }));
    await screen.findByText('No API keys yet');
    expect(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['viewer', 'admin', 'owner']);
    await userEvent.click(screen.getByRole('radio', { name: /^Owner/ }));
    expect(screen.getByRole('radio', { name: /^Owner/ })).toBeChecked();
  });

  it('asks the member to confirm it is them when the API wants a recent sign-in, then revokes', async () => {
    let signedInAgain = false;
    const page = openTenant('admin', (call) => {
      if (call.method === 'DELETE')
        return signedInAgain ? { status: 204 } : problem(403, 'reauthentication_required', 'Sign in again to do this.');
      if (call.path === '/api/sign_in') return SIGN_IN_STARTED;
      if (call.path === '/api/sign_in/status') return { body: { status: 'pending' } };
      if (call.path === '/api/sign_in/code') {
        signedInAgain = (call.body as { code: string }).code === '123456';
        return signedInAgain ? { body: { status: 'completed' } } : problem(400, 'invalid_login_code', 'Wrong code.');
      }
      return { body: { data: [key()], nextCursor: null } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke CI deploys' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Revoke CI deploys?' })).getByRole('button', { name: 'Revoke key' }));

    const confirm = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(confirm).getByText('Blue otters sing')).toBeInTheDocument();
    expect(page.calls.find((call) => call.path === '/api/sign_in')?.body).toEqual({ email: 'ada@example.com' });
    await userEvent.type(within(confirm).getByLabelText(/6-digit code/), '123456');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Sign in with the code' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.calls.filter((call) => call.method === 'DELETE')).toHaveLength(2);
  });

  it('keeps the refusal when the member cancels the confirmation', async () => {
    const page = openTenant('admin', (call) => {
      if (call.method === 'DELETE') return problem(403, 'reauthentication_required', 'Sign in again to do this.');
      if (call.path === '/api/sign_in') return SIGN_IN_STARTED;
      if (call.path === '/api/sign_in/status') return { body: { status: 'pending' } };
      return { body: { data: [key()], nextCursor: null } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke CI deploys' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Revoke CI deploys?' })).getByRole('button', { name: 'Revoke key' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm it’s you' })).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Sign in again to do this.')).toBeInTheDocument();
    expect(page.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
