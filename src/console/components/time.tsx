import { formatAbsolute } from '../lib/time';

/** An absolute UTC time; date and time wrap between them, never inside. */
export function Time({ value }: { value: string }) {
  const [date, ...rest] = formatAbsolute(value).split(' ');
  return (
    <time dateTime={value}>
      <span className="nowrap">{date}</span> <span className="nowrap">{rest.join(' ')}</span>
    </time>
  );
}
