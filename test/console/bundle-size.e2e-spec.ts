import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The built console (npm run build): what a first visit downloads before the first screen shows. */
const WEB = join(dirname(require.resolve('@sesame/console-web/package.json')), 'dist');
const BUDGET_BYTES = 250 * 1024;

describe('the console’s first load', () => {
  it('is under 250 KB of JavaScript, gzipped (the chart library loads only with the overview’s chart)', () => {
    const index = readFileSync(join(WEB, 'index.html'), 'utf8');
    const scripts = [...index.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((total, file) => total + gzipSync(readFileSync(join(WEB, file))).length, 0);
    process.stdout.write(`console first-load JavaScript: ${scripts.length} file(s), ${(gzipped / 1024).toFixed(1)} KB gzipped\n`);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
  });
});
