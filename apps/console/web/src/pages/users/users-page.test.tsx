import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { UsersPage } from './users-page';

type User = components['schemas']['UserResponse'];

const ORG = '11111111-1111-4111-8111-111111111111';
const PATTERN = '/t/:tenantId/organizations/:organizationId/users';

function user(overrides: Partial<User>): User {
  return {
    id: 'u1',
    organizationId: ORG,
    email: 'grace@example.com',
    name: 'Grace',
    blocked: false,
    emailVerified: true,
    lastLoginAt: '2026-11-01T10:00:00.000Z',
    createdAt: '2026-10-01T10:00:00.000Z',
    updatedAt: '2026-10-01T10:00:00.000Z',
    ...overrides,
  };
}

function open(role: 'viewer' | 'admin', api: (call: ApiCall) => { status?: number; body?: unknown }, search = '') {
  return renderPage(<UsersPage />, { pattern: PATTERN, path: `/t/:tenantId/organizations/${ORG}/users${search}`, role, api });
}

describe('UsersPage', () => {
  it('lists the users with their details, each linking to its page', async () => {
    const page = open('admin', () => ({
      body: {
        data: [user({}), user({ id: 'u2', email: 'alan@example.com', name: null, blocked: true, emailVerified: false, lastLoginAt: null })],
        nextCursor: null,
      },
    }));
    const rows = await screen.findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]).getByRole('link', { name: 'grace@example.com' }).getAttribute('href')).toBe(
      `/t/${page.tenantId}/organizations/${ORG}/users/u1`,
    );
    expect(within(rows[1]).getByText('Verified')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Blocked')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Never')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Not verified')).toBeInTheDocument();
  });

  it('searches by e-mail and keeps the search in the URL', async () => {
    const page = open('viewer', (call) => ({ body: { data: call.query.get('email') ? [] : [user({})], nextCursor: null } }));
    await screen.findByText('grace@example.com');
    await userEvent.type(screen.getByLabelText('E-mail'), 'nobody@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No user with the address nobody@example.com')).toBeInTheDocument();
    expect(page.calls.at(-1)?.query.get('email')).toBe('nobody@example.com');
    expect(page.location()).toContain('email=nobody%40example.com');
  });

  it('shows an empty state', async () => {
    open('admin', () => ({ body: { data: [], nextCursor: null } }));
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });

  it('shows the error of a failed list with Try again', async () => {
    open('admin', () => problem(503, 'service_unavailable', 'The database is unavailable right now.'));
    expect(await screen.findByText('The database is unavailable right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('gives a viewer no block or delete control', async () => {
    open('viewer', () => ({ body: { data: [user({})], nextCursor: null } }));
    await screen.findByText('grace@example.com');
    expect(screen.queryByRole('button', { name: /block/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /delete/i })).not.toBeInTheDocument();
  });

  it('blocks a user, and shows a refusal next to the action', async () => {
    let blocked = false;
    const page = open('admin', (call) => {
      if (call.method === 'POST') {
        if (blocked) return problem(403, 'insufficient_role', 'Your role may not do this.');
        blocked = true;
        return { body: user({ blocked: true }) };
      }
      return { body: { data: [user({ blocked })], nextCursor: null } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Block grace@example.com' }));
    expect(await screen.findByRole('button', { name: 'Unblock grace@example.com' })).toBeInTheDocument();
    const post = page.calls.find((call) => call.method === 'POST');
    expect(post?.path).toBe(`/api/v2/organization/${ORG}/user/u1`);
    expect(post?.body).toEqual({ blocked: true });
    expect(post?.headers.get('X-CSRF-Token')).not.toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Unblock grace@example.com' }));
    const row = screen.getAllByRole('row')[1];
    expect(await within(row).findByRole('alert')).toHaveTextContent('Your role may not do this.');
  });

  it('deletes a user after confirming', async () => {
    let deleted = false;
    const page = open('admin', (call) => {
      if (call.method === 'DELETE') {
        deleted = true;
        return { status: 204 };
      }
      return { body: { data: deleted ? [] : [user({})], nextCursor: null } };
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete grace@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete grace@example.com?' });
    expect(page.calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.calls.find((call) => call.method === 'DELETE')?.path).toBe(`/api/v2/organization/${ORG}/user/u1`);
  });
});
