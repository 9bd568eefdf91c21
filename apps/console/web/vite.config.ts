import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The console is served by apps/console under /console: the build goes to dist/ beside this file
 * (apps/console reads it from there), with hashed asset names it caches for a year.
 * `npm run dev` proxies the console's own API to a running `npm start`.
 */
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, reportCompressedSize: true },
  server: { proxy: { '/console/api': 'http://localhost:3000', '/console/auth': 'http://localhost:3000' } },
  test: { environment: 'jsdom', globals: true, setupFiles: ['src/test-setup.ts'], css: false },
});
