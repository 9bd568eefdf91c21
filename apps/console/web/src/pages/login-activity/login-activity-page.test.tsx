import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiAnswer, type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { LoginActivityPage } from './login-activity-page';

type Attempt = components['schemas']['LoginActivityResponse'];

const ORG = '33333333-3333-4333-8333-333333333333';
const APP = '44444444-4444-4444-8444-444444444444';

const attempt = (overrides: Partial<Attempt>): Attempt => ({
  id: 'a1',
  applicationId: APP,
  applicationName: 'Shop',
  email: 'grace@example.com',
  status: 'completed',
  mail: 'sent',
  createdAt: '2026-11-02T10:00:00.000Z',
  expiresAt: '2026-11-02T10:10:00.000Z',
  mailQueuedAt: '2026-11-02T10:00:01.000Z',
  mailSentAt: '2026-11-02T10:00:02.000Z',
  mailFailedAt: null,
  completedAt: '2026-11-02T10:01:00.000Z',
  method: 'email',
  ...overrides,
});

const APPLICATIONS = { data: [{ id: APP, name: 'Shop' }], nextCursor: null };

function open(api: (call: ApiCall) => ApiAnswer, search = '') {
  return renderPage(<LoginActivityPage />, {
    pattern: '/t/:tenantId/organizations/:organizationId/login-activity',
    path: `/t/:tenantId/organizations/${ORG}/login-activity${search}`,
    role: 'viewer',
    api: (call) => (call.path.endsWith('/application') ? { body: APPLICATIONS } : api(call)),
  });
}

describe('LoginActivityPage', () => {
  it('marks a failed e-mail delivery', async () => {
    open(() => ({
      body: {
        data: [
          attempt({
            id: 'a2',
            email: 'alan@example.com',
            status: 'pending',
            mail: 'failed',
            mailSentAt: null,
            mailFailedAt: '2026-11-02T11:00:00.000Z',
            completedAt: null,
          }),
          attempt({}),
        ],
        nextCursor: null,
      },
    }));
    const failedRow = (await screen.findByText('alan@example.com')).closest('tr')!;
    expect(failedRow).toHaveClass('failed');
    expect(within(failedRow).getByText('Failed')).toHaveClass('badge', 'badge-danger');

    const sentRow = screen.getByText('grace@example.com').closest('tr')!;
    expect(sentRow).not.toHaveClass('failed');
    expect(within(sentRow).getByText('Sent')).toBeInTheDocument();
    expect(within(sentRow).queryByText('Failed')).not.toBeInTheDocument();
  });

  it('sends the filters of the URL, and writes applied filters to it', async () => {
    const page = open(() => ({ body: { data: [], nextCursor: null } }), `?status=expired&application=${APP}&email=grace%40example.com`);
    expect(await screen.findByText('No login attempts match these filters')).toBeInTheDocument();
    const list = page.calls.find((call) => call.path.endsWith('/login_attempt'))!;
    expect(list.query.get('status')).toBe('expired');
    expect(list.query.get('applicationId')).toBe(APP);
    expect(list.query.get('email')).toBe('grace@example.com');
    expect(screen.getByLabelText('Status')).toHaveValue('expired');
    expect(await screen.findByRole('option', { name: 'Shop' })).toBeInTheDocument();
    expect(screen.getByLabelText('Application')).toHaveValue(APP);

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'locked');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(page.location()).toContain('status=locked');
    expect(page.location()).toContain('from=2026-11-01');
    const last = page.calls.filter((call) => call.path.endsWith('/login_attempt')).at(-1)!;
    expect(last.query.get('status')).toBe('locked');
    expect(new Date(last.query.get('from')!).getDate()).toBe(1);

    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(page.location()).not.toContain('?');
  });

  it('shows an empty state without filters', async () => {
    open(() => ({ body: { data: [], nextCursor: null } }));
    expect(await screen.findByText('No login attempts yet')).toBeInTheDocument();
  });

  it('says next to the field when the API refuses a filter', async () => {
    open(
      () => problem(400, 'validation_failed', 'The request is not valid.', [{ field: 'email', messages: ['email must be an email'] }]),
      '?email=nope',
    );
    const email = await screen.findByLabelText('E-mail');
    expect(await screen.findByText('Must be an email')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('Must be an email');
  });

  it('says when the end date is before the start date, without asking the API', async () => {
    const page = open(() => ({ body: { data: [], nextCursor: null } }), '?from=2026-11-05&to=2026-11-01');
    expect(await screen.findByText('The end date is before the start date.')).toBeInTheDocument();
    expect(page.calls.some((call) => call.path.endsWith('/login_attempt'))).toBe(false);
  });

  it('loads more with the cursor', async () => {
    const page = open((call) =>
      call.query.get('cursor')
        ? { body: { data: [attempt({ id: 'a9', email: 'older@example.com' })], nextCursor: null } }
        : { body: { data: [attempt({})], nextCursor: 'c1' } },
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('older@example.com')).toBeInTheDocument();
    expect(page.calls.at(-1)?.query.get('cursor')).toBe('c1');
  });
});
