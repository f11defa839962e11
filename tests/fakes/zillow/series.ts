/**
 * The values in the fake Zillow files: month-end dates, a deterministic hash and pseudo-random
 * generator, and the default monthly series of a place.
 */

/** The month-end dates of `months` consecutive months ending with `lastPeriod` ("YYYY-MM-DD"). */
export function monthEnds(months: number, lastPeriod = '2025-09-30'): string[] {
  const last = new Date(`${lastPeriod}T00:00:00Z`);
  const dates: string[] = [];
  for (let back = months - 1; back >= 0; back -= 1) {
    // Day 0 of the next month is the last day of this one.
    const end = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() - back + 1, 0));
    dates.push(end.toISOString().slice(0, 10));
  }
  return dates;
}

/** A small deterministic hash of a string (FNV-1a), for values that look different per place. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The default monthly series of a place: a value between about $150k and $1.2M that grows about
 * 3% a year with a seasonal wave, full double precision like Zillow's ("431207.0934411307"). With
 * `integers`, whole numbers around 10 to 400 (an inventory count).
 */
export function fakeSeries(key: string, months: number, integers = false): number[] {
  const h = hash(key);
  if (integers) {
    const base = 10 + (h % 390);
    return Array.from({ length: months }, (_, month) => Math.round(base * (1 + 0.2 * Math.sin(month / 2 + (h % 7)))));
  }
  const base = 150_000 + (h % 1_050_000) + (h % 997) / 1000;
  return Array.from(
    { length: months },
    (_, month) => base * Math.pow(1.0025, month) * (1 + 0.01 * Math.sin((month + (h % 12)) / 1.9)),
  );
}
