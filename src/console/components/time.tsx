import { formatAbsolute } from '../lib/time';

/**
 * An absolute UTC time; date and time wrap between them, never inside. No time (never
 * used, never expires): `empty` in its place.
 */
export function Time({ value, empty = null }: { value: string | null; empty?: string | null }) {
  if (value === null) return empty;
  const [date, ...rest] = formatAbsolute(value).split(' ');
  return (
    <time dateTime={value}>
      <span className="nowrap">{date}</span> <span className="nowrap">{rest.join(' ')}</span>
    </time>
  );
}
