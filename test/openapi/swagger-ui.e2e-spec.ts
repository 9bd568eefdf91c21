import { RunningApp, startAuthApi } from '../support/apps';
import { launchBrowser, TestBrowser } from '../support/browser';

/** What a developer sees in Swagger UI: the rate limit's 429 and its headers on a public route. */
describe('Swagger UI of the auth API', () => {
  let auth: RunningApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    auth = await startAuthApi();
    browser = await launchBrowser({ artifacts: 'openapi', viewport: { width: 1280, height: 2000 } });
  });
  afterAll(async () => {
    await browser?.close();
    await auth?.close();
  });

  it('shows 429 with Retry-After and RateLimit-* on GET /v1/.well-known/jwks.json', async () => {
    const { page } = browser;
    await page.goto(`${auth.url}/api/v1/docs`);
    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/api/v1/.well-known/jwks.json"]') });
    await operation.locator('.opblock-summary-control').click();
    const tooMany = operation.locator('tr.response[data-code="429"]');
    await tooMany.waitFor();
    await tooMany.scrollIntoViewIfNeeded();
    for (const header of ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']) {
      await expect(tooMany.locator('.headers-wrapper').getByText(header, { exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(operation.locator('tr.response[data-code="503"]').count()).resolves.toBe(1);
    await browser.screenshot(page, 'swagger-ui-jwks-429');
  });
});
