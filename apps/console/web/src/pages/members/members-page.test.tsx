import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiAnswer, type ApiCall, problem, renderPage } from '../../test-support/render-page';
import { MembersPage } from './members-page';

type Member = components['schemas']['MemberResponse'];

const member = (overrides: Partial<Member>): Member => ({
  id: 'm-self',
  tenantId: 't',
  email: 'ada@example.com',
  role: 'owner',
  invitedBy: null,
  createdAt: '2026-10-01T10:00:00.000Z',
  lastSignInAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

const OWNER = member({});
const ADMIN = member({ id: 'm2', email: 'grace@example.com', role: 'admin', invitedBy: 'linus@example.com' });

function open(role: 'viewer' | 'admin' | 'owner', api: (call: ApiCall) => ApiAnswer) {
  return renderPage(<MembersPage />, { pattern: '/t/:tenantId/members', path: '/t/:tenantId/members', role, api });
}

const list = (...members: Member[]) => ({ body: { data: members, nextCursor: null } });

describe('MembersPage', () => {
  it('explains the three roles', async () => {
    open('viewer', () => list(OWNER));
    const roles = screen.getByRole('list', { name: 'Roles' });
    expect(within(roles).getByText(/reads everything but secrets/)).toBeInTheDocument();
    expect(within(roles).getByText(/changes organizations, applications, users and keys/)).toBeInTheDocument();
    expect(within(roles).getByText(/also manages members/)).toBeInTheDocument();
  });

  it('says beside a single owner that the last owner can be neither removed nor demoted', async () => {
    open('owner', () => list(OWNER, ADMIN));
    const ownerRow = (await screen.findByText('ada@example.com')).closest('tr')!;
    expect(within(ownerRow).getByText('The last owner can be neither removed nor demoted.')).toBeInTheDocument();
    const adminRow = screen.getByText('grace@example.com').closest('tr')!;
    expect(within(adminRow).queryByText(/last owner/)).not.toBeInTheDocument();
  });

  it('says nothing of the rule when there are two owners', async () => {
    open('owner', () => list(OWNER, { ...ADMIN, role: 'owner' }));
    await screen.findByText('grace@example.com');
    expect(screen.queryByText(/last owner/)).not.toBeInTheDocument();
  });

  it('shows a last_owner refusal of a role change next to that member', async () => {
    const page = open('owner', (call) =>
      call.method === 'POST'
        ? problem(409, 'last_owner', "The tenant's last owner cannot be removed or demoted.")
        : list(OWNER, { ...ADMIN, role: 'owner' }),
    );
    await userEvent.selectOptions(await screen.findByLabelText('Role of ada@example.com'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Change the role of ada@example.com' }));
    const ownerRow = screen.getByText('ada@example.com').closest('tr')!;
    expect(await within(ownerRow).findByRole('alert')).toHaveTextContent(
      'The last owner can be neither removed nor demoted: make another member owner first.',
    );
    expect(within(screen.getByText('grace@example.com').closest('tr')!).queryByRole('alert')).not.toBeInTheDocument();
    const post = page.calls.find((call) => call.method === 'POST')!;
    expect(post.path).toBe('/api/v2/tenant/member/m-self');
    expect(post.body).toEqual({ role: 'admin' });
  });

  it('shows a last_owner refusal of a removal in its confirmation', async () => {
    open('owner', (call) => (call.method === 'DELETE' ? problem(409, 'last_owner', 'last owner') : list(OWNER, ADMIN)));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove ada@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove ada@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The last owner can be neither removed nor demoted');
  });

  it('removes a member after confirming', async () => {
    let removed = false;
    const page = open('owner', (call) => {
      if (call.method === 'DELETE') {
        removed = true;
        return { status: 204 };
      }
      return removed ? list(OWNER) : list(OWNER, ADMIN);
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Remove grace@example.com' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove member' }));
    await screen.findByText('The last owner can be neither removed nor demoted.');
    expect(screen.queryByText('grace@example.com')).not.toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/v2/tenant/member/m2');
  });

  it('invites a member with a role', async () => {
    const page = open('owner', (call) =>
      call.method === 'POST' ? { status: 201, body: member({ id: 'm3', email: 'new@example.com', role: 'admin' }) } : list(OWNER),
    );
    await screen.findByText('ada@example.com');
    await userEvent.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(/Invited new@example.com/)).toBeInTheDocument();
    expect(page.calls.find((call) => call.method === 'POST')?.body).toEqual({ email: 'new@example.com', role: 'admin' });
  });

  it('shows validation and member_exists errors next to the e-mail field', async () => {
    let answer = problem(400, 'validation_failed', 'The request is not valid.', [{ field: 'email', messages: ['email must be an email'] }]);
    open('owner', (call) => (call.method === 'POST' ? answer : list(OWNER)));
    await screen.findByText('ada@example.com');
    const email = screen.getByLabelText('E-mail');
    await userEvent.type(email, 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Must be an email')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('Must be an email');
    expect(email).toHaveAttribute('aria-invalid', 'true');

    answer = problem(409, 'member_exists', 'grace@example.com is already a member.');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('grace@example.com is already a member.')).toBeInTheDocument();
    expect(email).toHaveAccessibleDescription('grace@example.com is already a member.');
  });

  it('gives admins and viewers no mutating control', async () => {
    for (const role of ['admin', 'viewer'] as const) {
      const page = open(role, () => list(OWNER, ADMIN));
      await screen.findByText('grace@example.com');
      expect(screen.queryByRole('button')).not.toBeInTheDocument();
      expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
      expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
      page.unmount();
    }
  });

  it('shows an error when the list cannot be read', async () => {
    open('owner', () => problem(403, 'insufficient_role', 'Your role may not do this.'));
    expect(await screen.findByText('Your role may not do this.')).toBeInTheDocument();
  });
});
