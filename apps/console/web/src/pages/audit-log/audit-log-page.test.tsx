import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiAnswer, type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { AuditLogPage } from './audit-log-page';

type AuditEvent = components['schemas']['AuditEventResponse'];

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 'e1',
  actor: { type: 'member', id: 'm1', name: 'ada@example.com' },
  action: 'organization.update',
  targetType: 'organization',
  targetId: '55555555-5555-4555-8555-555555555555',
  changes: { name: 'Acme Europe', linkTtlSeconds: 600, callbackUrls: ['https://app.example/callback'] },
  ip: '203.0.113.7',
  requestId: 'req-123',
  createdAt: '2026-11-02T10:00:00.000Z',
  ...overrides,
});

function open(role: 'viewer' | 'admin' | 'owner', api: (call: ApiCall) => ApiAnswer, search = '') {
  return renderPage(<AuditLogPage />, { pattern: '/t/:tenantId/audit-log', path: `/t/:tenantId/audit-log${search}`, role, api });
}

describe('AuditLogPage', () => {
  it('names a user who registered their own passkey, and offers users and passkeys as filters', async () => {
    const page = open('admin', () => ({
      body: {
        data: [
          event({
            actor: { type: 'user', id: 'u1', name: 'grace@example.com' },
            action: 'passkey.register',
            targetType: 'passkey',
            changes: { userId: 'u1', name: 'Chrome on macOS' },
          }),
        ],
        nextCursor: null,
      },
    }));
    const row = within((await screen.findAllByRole('row'))[1]);
    expect(row.getByText('User')).toBeInTheDocument();
    expect(row.getByText('grace@example.com')).toBeInTheDocument();
    expect(row.getByText('passkey.register')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Actor type')).getByRole('option', { name: 'User' })).toBeInTheDocument();
    expect(page.container.querySelector('#audit-target-types option[value="passkey"]')).not.toBeNull();
  });

  it('shows who changed what, from where', async () => {
    open('admin', () => ({
      body: {
        data: [event({}), event({ id: 'e2', actor: { type: 'platform', id: null, name: null }, changes: null, ip: null, requestId: null })],
        nextCursor: null,
      },
    }));
    const rows = await screen.findAllByRole('row');
    const first = within(rows[1]);
    expect(first.getByText('Member')).toBeInTheDocument();
    expect(first.getByText('ada@example.com')).toBeInTheDocument();
    expect(first.getByText('organization.update')).toBeInTheDocument();
    expect(first.getAllByRole('term').map((term) => term.textContent)).toEqual(['name', 'linkTtlSeconds', 'callbackUrls']);
    expect(first.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      'Acme Europe',
      '600',
      '["https://app.example/callback"]',
    ]);
    expect(first.getByText('203.0.113.7')).toBeInTheDocument();
    expect(first.getByText('req-123')).toBeInTheDocument();
    expect(within(rows[2]).getByText('Platform')).toBeInTheDocument();
  });

  it('sends the filters of the URL and writes applied ones to it', async () => {
    const page = open('owner', () => ({ body: { data: [], nextCursor: null } }), '?actorType=api_key&targetType=user');
    expect(await screen.findByText('No events match these filters')).toBeInTheDocument();
    expect(page.calls[0].query.get('actorType')).toBe('api_key');
    expect(page.calls[0].query.get('targetType')).toBe('user');
    expect(screen.getByLabelText('Actor type')).toHaveValue('api_key');

    await userEvent.type(screen.getByLabelText('Action'), 'user.delete');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-03');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(page.location()).toContain('action=user.delete');
    expect(page.location()).toContain('to=2026-11-03');
    const last = page.calls.at(-1)!;
    expect(last.query.get('action')).toBe('user.delete');
    // "To 3 November" includes that day: the API's exclusive `to` is the start of the 4th.
    expect(new Date(last.query.get('to')!).getDate()).toBe(4);
  });

  it('loads more events with the cursor', async () => {
    const page = open('admin', (call) =>
      call.query.get('cursor')
        ? { body: { data: [event({ id: 'e9', action: 'user.delete' })], nextCursor: null } }
        : { body: { data: [event({})], nextCursor: 'next-1' } },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('user.delete')).toBeInTheDocument();
    expect(screen.getByText('organization.update')).toBeInTheDocument();
    expect(page.calls.at(-1)?.query.get('cursor')).toBe('next-1');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    open('admin', () => ({ body: { data: [], nextCursor: null } }));
    expect(await screen.findByText('No changes recorded yet')).toBeInTheDocument();
  });

  it('shows a refused filter next to its field', async () => {
    open(
      'admin',
      () =>
        problem(400, 'validation_failed', 'The request is not valid.', [
          { field: 'action', messages: ['action must be shorter than or equal to 100 characters'] },
        ]),
      '?action=x',
    );
    expect(await screen.findByText('Must be shorter than or equal to 100 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Action')).toHaveAccessibleDescription('Must be shorter than or equal to 100 characters');
  });

  it('tells a viewer the log is for admins and owners, without asking the API', async () => {
    const page = open('viewer', () => ({ body: { data: [], nextCursor: null } }));
    expect(screen.getByText('The audit log is for admins and owners')).toBeInTheDocument();
    expect(page.calls).toHaveLength(0);
  });
});
