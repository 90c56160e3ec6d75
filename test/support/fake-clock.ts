/**
 * A simulated clock for limiter and transport tests: `sleep(ms)` records the wait and moves the clock on at
 * once, so no test depends on wall-clock time.
 */

/** A simulated clock. */
export interface FakeClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Moves the clock on without a sleep (time passing between calls). */
  advance: (ms: number) => void;
  /** Every sleep requested, in order, in milliseconds. */
  sleeps: number[];
}

/** 2026-11-22T10:00:00Z, a whole second (HTTP dates have second precision). */
export const FAKE_EPOCH = Date.UTC(2026, 10, 22, 10, 0, 0);

/**
 * Creates a simulated clock.
 *
 * @param start - Start time in ms since epoch.
 */
export function createFakeClock(start: number = FAKE_EPOCH): FakeClock {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      t += Math.max(0, ms);
    },
    advance: (ms) => {
      t += ms;
    },
    sleeps,
  };
}
