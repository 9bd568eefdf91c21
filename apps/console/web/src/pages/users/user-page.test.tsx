import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { UserPage } from './user-page';

type User = components['schemas']['UserResponse'];
type Passkey = components['schemas']['PasskeyResponse'];

const ORG = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const PATTERN = '/t/:tenantId/organizations/:organizationId/users/:userId';
const USER_PATH = `/api/v2/organization/${ORG}/user/${USER}`;

const GRACE: User = {
  id: USER,
  organizationId: ORG,
  email: 'grace@example.com',
  name: 'Grace',
  blocked: false,
  emailVerified: true,
  lastLoginAt: '2026-11-01T10:00:00.000Z',
  createdAt: '2026-10-01T10:00:00.000Z',
  updatedAt: '2026-10-01T10:00:00.000Z',
};

function passkey(overrides: Partial<Passkey>): Passkey {
  return {
    id: 'pk-1',
    name: 'Chrome on macOS',
    deviceType: 'multiDevice',
    backedUp: true,
    transports: ['internal', 'hybrid'],
    rpId: null,
    createdAt: '2026-10-02T10:00:00.000Z',
    lastUsedAt: '2026-11-01T09:00:00.000Z',
    ...overrides,
  };
}

/** The user, and their passkeys as `passkeys()` says at the time of each call; other calls go to `other`. */
function open(
  role: 'viewer' | 'admin' | 'owner',
  passkeys: () => Passkey[],
  other: (call: ApiCall) => { status?: number; body?: unknown } = () => ({}),
) {
  return renderPage(<UserPage />, {
    pattern: PATTERN,
    path: `/t/:tenantId/organizations/${ORG}/users/${USER}`,
    role,
    api: (call) => {
      if (call.method === 'GET' && call.path === USER_PATH) return { body: GRACE };
      if (call.method === 'GET' && call.path === `${USER_PATH}/passkey`) return { body: { data: passkeys() } };
      return other(call);
    },
  });
}

const passkeyTable = async () => within(await screen.findByRole('table'));

describe('UserPage', () => {
  it('shows the user and their passkeys: name, device type, where each signs in, created, last used', async () => {
    open('viewer', () => [
      passkey({}),
      passkey({ id: 'pk-2', name: 'Security key', deviceType: 'singleDevice', rpId: 'app.example.com', lastUsedAt: null }),
    ]);
    expect(await screen.findByRole('heading', { name: 'grace@example.com' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Passkeys' })).toBeInTheDocument();
    const table = await passkeyTable();
    expect(table.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Name',
      'Device type',
      'Signs in on',
      'Created',
      'Last used',
    ]);
    const rows = table.getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('Chrome on macOS')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Synced (multi-device)')).toBeInTheDocument();
    expect(within(rows[0]).getByText('The hosted login page')).toBeInTheDocument();
    expect(
      within(rows[0])
        .getAllByRole('time')
        .map((time) => time.getAttribute('datetime')),
    ).toEqual(['2026-10-02T10:00:00.000Z', '2026-11-01T09:00:00.000Z']);
    expect(within(rows[1]).getByText('This device only')).toBeInTheDocument();
    expect(within(rows[1]).getByText('app.example.com')).toBeInTheDocument();
    expect(within(rows[1]).getByText('Never')).toBeInTheDocument();
  });

  it('gives a viewer no Remove control', async () => {
    open('viewer', () => [passkey({})]);
    await screen.findByText('Chrome on macOS');
    expect(screen.queryByRole('button', { name: /remove/i })).not.toBeInTheDocument();
  });

  it('shows an empty state for a user without passkeys', async () => {
    open('admin', () => []);
    expect(await screen.findByText('No passkeys')).toBeInTheDocument();
  });

  it('shows the error of a failed list with Try again', async () => {
    renderPage(<UserPage />, {
      pattern: PATTERN,
      path: `/t/:tenantId/organizations/${ORG}/users/${USER}`,
      role: 'admin',
      api: (call) =>
        call.path === USER_PATH ? { body: GRACE } : problem(503, 'service_unavailable', 'The database is unavailable right now.'),
    });
    expect(await screen.findByText('The database is unavailable right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('removes a passkey after confirming, and the list no longer has it', async () => {
    let removed = false;
    const page = open(
      'admin',
      () => (removed ? [passkey({ id: 'pk-2', name: 'Security key' })] : [passkey({}), passkey({ id: 'pk-2', name: 'Security key' })]),
      (call) => {
        if (call.method !== 'DELETE') return { status: 404 };
        removed = true;
        return { status: 204 };
      },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the passkey Chrome on macOS' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove the passkey Chrome on macOS?' });
    expect(dialog).toHaveTextContent('It stops signing grace@example.com in at once.');
    expect(page.calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(screen.queryByText('Chrome on macOS')).not.toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Security key')).toBeInTheDocument();
    const remove = page.calls.find((call) => call.method === 'DELETE');
    expect(remove?.path).toBe(`${USER_PATH}/passkey/pk-1`);
    expect(remove?.headers.get('X-CSRF-Token')).not.toBeNull();
  });

  it('keeps the passkey when Cancel is pressed', async () => {
    const page = open('owner', () => [passkey({})]);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the passkey Chrome on macOS' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(page.calls.some((call) => call.method === 'DELETE')).toBe(false);
    expect(screen.getByText('Chrome on macOS')).toBeInTheDocument();
  });

  it('shows a refusal in the dialog and keeps the passkey listed', async () => {
    open(
      'admin',
      () => [passkey({})],
      () => problem(404, 'not_found', 'passkey not found'),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the passkey Chrome on macOS' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove passkey' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('passkey not found');
    expect(screen.getAllByText('Chrome on macOS').length).toBeGreaterThan(0);
  });
});
