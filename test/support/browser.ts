import AxeBuilder from '@axe-core/playwright';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots and other files a test leaves for people to look at (gitignored). */
export const ARTIFACTS_DIR = resolve(__dirname, '..', '..', 'test-artifacts');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Saves a full-page PNG under test-artifacts/<folder>/ and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Sub-folder of test-artifacts/ for this test's screenshots. */
  artifacts: string;
  locale?: string;
  viewport?: { width: number; height: number };
}

/**
 * Launches headless Chromium through playwright-core with a fresh, throw-away profile (so no
 * cookie or cache survives from another run) and one page.
 */
export async function launchBrowser(options: LaunchOptions): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'sesame-chromium-'));
  const folder = join(ARTIFACTS_DIR, options.artifacts);
  await mkdir(folder, { recursive: true });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      locale: options.locale ?? 'en-US',
      viewport: options.viewport ?? { width: 1024, height: 720 },
      timeout: 20_000,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    screenshot: async (target, name) => {
      const path = join(folder, `${name}.png`);
      await target.screenshot({ path, fullPage: true });
      return path;
    },
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** No serious or critical axe violation on the screen. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect({
    screen,
    violations: serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
  }).toEqual({ screen, violations: [] });
}

/**
 * A console screen checked as its users see it: nothing beyond the window's width (a table too
 * wide for it scrolled the whole page sideways), no serious or critical axe violation in light or
 * dark, and a screenshot of each to look at.
 */
export async function lookAt(shooter: TestBrowser, page: Page, name: string): Promise<void> {
  expect([name, await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')]).toEqual([name, 0]);
  await expectAccessible(page, name);
  await shooter.screenshot(page, `${name}-light`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, `${name} (dark)`);
  await shooter.screenshot(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}
