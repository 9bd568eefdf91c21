import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PAGE, problem, renderPage } from '../../test-support/render-page';
import { OrganizationsPage } from './organizations-page';

const open = (role: 'viewer' | 'admin', api: Parameters<typeof renderPage>[1]['api']) =>
  renderPage(<OrganizationsPage />, { pattern: '/t/:tenantId/organizations', path: '/t/:tenantId/organizations', role, api });

describe('OrganizationsPage', () => {
  it('shows the API’s refusal of a whitelist entry under that entry, and sends only the filled entries', async () => {
    const page = open('admin', (call) =>
      call.method === 'POST'
        ? problem(400, 'validation_failed', 'whitelistDomains.1 must use https', [
            { field: 'whitelistDomains.1', messages: ['whitelistDomains.1 must use https (http is allowed only for loopback hosts)'] },
          ])
        : { body: PAGE },
    );
    await screen.findByText('No organizations yet');
    await userEvent.click(screen.getByRole('button', { name: 'New organization' }));
    await userEvent.type(screen.getByLabelText('Name'), 'Acme Books');
    await userEvent.type(screen.getByRole('textbox', { name: 'Whitelist domain 1' }), 'https://books.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add a domain' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a domain' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Whitelist domain 3' }), 'http://shop.example.com');
    await userEvent.selectOptions(screen.getByLabelText('Passkeys'), 'required');
    await userEvent.click(screen.getByRole('button', { name: 'Create organization' }));

    // The empty second entry is not sent, so the API's entry 1 is the form's third.
    const error = (await screen.findAllByText(/http is allowed only for loopback hosts/)).find((element) => element.id)!;
    expect(error.id).toBe('domain-2-error');
    expect(screen.getByRole('textbox', { name: 'Whitelist domain 3' })).toHaveAttribute('aria-invalid', 'true');
    expect(page.calls.at(-1)!.body).toEqual({
      name: 'Acme Books',
      whitelistDomains: ['https://books.example.com', 'http://shop.example.com'],
      autologin: false,
      linkTtlSeconds: 900,
      passkeys: 'required',
    });
  });

  it('offers a viewer no way to create one', async () => {
    open('viewer', () => ({
      body: {
        data: [
          {
            id: 'o1',
            name: 'Acme Books',
            tenantId: 't',
            whitelistDomains: [],
            autologin: false,
            linkTtlSeconds: 900,
            passkeys: 'offered',
            createdAt: '',
            updatedAt: '',
          },
        ],
        nextCursor: null,
      },
    }));
    expect(await screen.findByRole('link', { name: 'Acme Books' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New organization' })).not.toBeInTheDocument();
  });

  it('says what went wrong when the list cannot be read, and tries again on request', async () => {
    let failures = 1;
    open('admin', () =>
      failures-- > 0 ? problem(503, 'service_unavailable', 'The database is unavailable; retry shortly') : { body: PAGE },
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is unavailable; retry shortly');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No organizations yet')).toBeInTheDocument();
  });
});
