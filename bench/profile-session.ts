// The CPU profiler of a bench child's timed part, when EVAP_BENCH_PROFILE=<file> asks for one.
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/** The profiler started (when asked for): a function that stops it and writes the profile to the file. */
export async function startProfile(): Promise<(() => Promise<void>) | null> {
  const file = process.env.EVAP_BENCH_PROFILE;
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
