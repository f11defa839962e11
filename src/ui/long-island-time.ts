/**
 * Long Island's calendar and clock (America/New_York): an estimate's day, a seller update's day and
 * its sending window, the dashboard's weeks and the leads' times are all told on Long Island.
 */

export const LONG_ISLAND_TIME_ZONE = 'America/New_York';

// Made once: a formatter costs tens of µs to build.
let dayFormat: Intl.DateTimeFormat | undefined;
let hourFormat: Intl.DateTimeFormat | undefined;

/** YYYY-MM-DD on Long Island (en-CA writes that form). */
export function longIslandDay(at: Date): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', { timeZone: LONG_ISLAND_TIME_ZONE });
  return dayFormat.format(at);
}

/** The hour (0-23) on Long Island. */
export function longIslandHour(at: Date): number {
  hourFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: LONG_ISLAND_TIME_ZONE,
    hour: 'numeric',
    hourCycle: 'h23',
  });
  return Number(hourFormat.format(at)) % 24;
}

/** Whether `at` is inside the window [start, end) of Long Island hours. */
export const insideWindow = (at: Date, start: number, end: number): boolean => {
  const hour = longIslandHour(at);
  return hour >= start && hour < end;
};

/** The instant `day` (YYYY-MM-DD) shows `hour`:`minute` on Long Island (EST or EDT, whichever is in force). */
export function longIslandInstant(day: string, hour: number, minute = 0): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  for (const utcOffset of [4, 5]) {
    const at = new Date(midnightUtc + ((hour + utcOffset) * 60 + minute) * 60_000);
    if (longIslandHour(at) === hour && longIslandDay(at) === day) return at;
  }
  return new Date(midnightUtc + ((hour + 5) * 60 + minute) * 60_000);
}
