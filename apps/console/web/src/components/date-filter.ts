/**
 * Date filters kept in the URL as `YYYY-MM-DD` (the reader's calendar days), sent to the API as
 * instants: `from` is the start of that day, `to` the start of the day after (the API's `to` is
 * exclusive), so "to 3 May" includes 3 May.
 */
export function startOfDay(day: string): string | undefined {
  return midnight(day, 0);
}

export function endOfDay(day: string): string | undefined {
  return midnight(day, 1);
}

/** Local midnight `daysLater` days after `day` (YYYY-MM-DD), as an ISO instant. */
function midnight(day: string, daysLater: number): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [year, month, date] = day.split('-').map(Number);
  const instant = new Date(year, month - 1, date + daysLater);
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
}

/** Words for a to-date before the from-date, or undefined. */
export function dateRangeError(from: string, to: string): string | undefined {
  return from && to && to < from ? 'The end date is before the start date.' : undefined;
}
