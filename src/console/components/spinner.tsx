/**
 * A small busy indicator. With `label` it is a loading line; the region that loads sets
 * aria-busy. No role=status here: the page's statuses stay few and meaningful.
 */
export function Spinner({ label }: { label?: string }) {
  return label ? (
    <p className="loading">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  ) : (
    <span className="spinner" aria-hidden="true" />
  );
}
