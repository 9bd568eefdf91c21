/**
 * Preloaded into a server being profiled (`node -r dist/bench/profiler-preload.js …`, with
 * BENCH_PROFILE_FILE set). SIGWINCH toggles the V8 CPU profiler: the first starts it (sent after
 * the warm-up, so start-up and JIT warm-up stay out of the profile), the second stops it and
 * writes the .cpuprofile. SIGWINCH because Nest's shutdown hooks treat SIGUSR2 and most other
 * signals as "shut down", and its default action is to do nothing.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const file = process.env.BENCH_PROFILE_FILE;
const session = new Session();
session.connect();
let state: 'idle' | 'profiling' | 'done' = 'idle';

process.on('SIGWINCH', () => {
  if (state === 'idle') {
    state = 'profiling';
    session.post('Profiler.enable', () => session.post('Profiler.start'));
  } else if (state === 'profiling') {
    state = 'done';
    session.post('Profiler.stop', (error, result) => {
      if (error) process.stderr.write(`profiler: ${error.message}\n`);
      else if (file) writeFileSync(file, JSON.stringify(result.profile));
    });
  }
});
