import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../api/management-api';
import { type ApiCall, type ApiAnswer, renderPage } from '../../test-support/render-page';
import { IntegrationPage } from './integration-page';

type Application = components['schemas']['ApplicationResponse'];
type Attempt = components['schemas']['LoginActivityResponse'];

const SECRET = 'cs_secretvalue0123456789abcdefghij';
const ENDPOINTS = {
  issuer: 'https://id.example.com/api/v1',
  discovery: 'https://id.example.com/api/v1/.well-known/openid-configuration',
  jwks: 'https://id.example.com/api/v1/.well-known/jwks.json',
  authorize: 'https://id.example.com/api/v1/authorize',
  authenticateDirect: 'https://id.example.com/api/v1/authenticate_direct',
  verify: 'https://id.example.com/api/v1/verify',
  userinfo: 'https://id.example.com/api/v1/userinfo',
};

const application = (overrides: Partial<Application> = {}): Application => ({
  id: 'app-1',
  organizationId: 'org-1',
  name: 'Acme web',
  type: 'web',
  clientId: 'client-abc',
  callbackUrls: ['https://shop.example.com/callback'],
  idTokenEncryptedResponseAlg: null,
  idTokenEncryptedResponseEnc: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  clientSecret: null,
  ...overrides,
});

function open(role: 'viewer' | 'admin', api: (call: ApiCall) => ApiAnswer | undefined) {
  return renderPage(<IntegrationPage />, {
    pattern: '/t/:tenantId/organizations/:organizationId/applications/:applicationId',
    path: '/t/:tenantId/organizations/org-1/applications/app-1',
    role,
    // The API answers the secret only to `?include=secret`.
    api: (call) =>
      api(call) ??
      (call.path === '/api/endpoints'
        ? { body: ENDPOINTS }
        : { body: application(call.query.get('include') === 'secret' ? { clientSecret: SECRET } : {}) }),
  });
}

describe('IntegrationPage', () => {
  it('reads the client secret only on Reveal, and fills the quick start with the client id but never the secret', async () => {
    const page = open('admin', () => undefined);
    const secret = await screen.findByLabelText('Client secret', { selector: 'code' });
    expect(secret.textContent).toMatch(/^•+$/);
    expect(page.calls.some((call) => call.query.get('include') === 'secret')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(secret).toHaveTextContent(SECRET);
    expect(page.calls.filter((call) => call.query.get('include') === 'secret')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(document.body.textContent).not.toContain(SECRET);
    const snippet = await screen.findByRole('tabpanel');
    expect(snippet).toHaveTextContent("clientId: 'client-abc'");
    expect(snippet).toHaveTextContent("baseUrl: 'https://id.example.com/api'");
    // The whole any-device flow: the sentence, the approval number, the code and the wait.
    for (const step of ['attempt.approvalNumber', 'sesame.verifyCode', 'sesame.loginStatusHandler()'])
      expect(snippet).toHaveTextContent(step);
    expect(snippet.textContent).not.toContain(SECRET);
    expect(screen.getByText(ENDPOINTS.jwks)).toBeInTheDocument();
  });

  it('rotates the secret only after a confirmation, and shows the new one', async () => {
    const page = open('admin', (call) =>
      call.path.endsWith('/rotate_secret')
        ? { body: application({ clientSecret: 'cs_new', previousSecretExpiresAt: '2026-11-26T10:00:00.000Z' }) }
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Rotate' }));
    expect(page.calls.some((call) => call.path.endsWith('/rotate_secret'))).toBe(false);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByText('cs_new')).toBeInTheDocument();
    expect(screen.getByText(/The previous secret works until/)).toBeInTheDocument();
  });

  it('shows a viewer neither the secret nor any control that changes something', async () => {
    const page = open('viewer', () => undefined);
    expect(await screen.findByText('Only admins and owners see the client secret.')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /Reveal|Rotate|Save|Add a callback URL|Remove|Send me a login link/ }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Callback URL 1' })).toBeDisabled();
    expect(page.calls.some((call) => call.query.get('include') === 'secret')).toBe(false);
  });

  it('Try it follows the attempt live until it completes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const states: Partial<Attempt>[] = [
        { status: 'pending', mail: 'queued' },
        { status: 'pending', mail: 'sent' },
        { status: 'completed', mail: 'sent' },
      ];
      const page = open('admin', (call) => {
        if (call.path === '/api/try_it')
          return {
            body: {
              mode: 'direct',
              email: 'ada@example.com',
              loginAttemptId: 'a1',
              sentence: 'Clever nectar jingles greatly',
              hostedUrl: null,
              redirectUri: 'https://shop.example.com/callback',
            },
          };
        if (call.path.endsWith('/login_attempt'))
          return {
            body: { data: [{ id: 'a1', ...states.shift()!, mailSentAt: null, mailQueuedAt: null, mailFailedAt: null }], nextCursor: null },
          };
        return undefined;
      });
      await userEvent.click(await screen.findByRole('button', { name: 'Send me a login link' }));
      expect(await screen.findByTestId('try-it-sentence')).toHaveTextContent('Clever nectar jingles greatly');
      expect(await screen.findByText('Queued')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2000);
      expect(await screen.findByText('Sent')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(2000);
      expect(await screen.findByText('Signed in: the integration works')).toBeInTheDocument();
      const polls = page.calls.filter((call) => call.path.endsWith('/login_attempt'));
      expect(polls[0].query.get('email')).toBe('ada@example.com');
      expect(polls[0].query.get('applicationId')).toBe('app-1');
      await vi.advanceTimersByTimeAsync(6000);
      expect(page.calls.filter((call) => call.path.endsWith('/login_attempt'))).toHaveLength(polls.length);
      const tried = page.calls.find((call) => call.path === '/api/try_it')!;
      expect([tried.body, tried.headers.get('sesame-tenant')]).toEqual([
        { organizationId: 'org-1', applicationId: 'app-1' },
        page.tenantId,
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
