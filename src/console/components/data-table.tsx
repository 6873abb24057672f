import type { ReactNode } from 'react';

interface DataTableProps<Row> {
  /** Read out only, unless `showCaption`: most tables sit under a heading that says it. */
  caption: ReactNode;
  showCaption?: boolean;
  /** The column headers, left to right. */
  columns: readonly ReactNode[];
  rows: readonly Row[];
  /** The one row said when there are no rows; absent where a table is never empty. */
  empty?: ReactNode;
  /** A row's `<tr>`, with its key. */
  children: (row: Row, index: number) => ReactNode;
}

/** A table of records, one row each, that scrolls sideways on a narrow screen. */
export function DataTable<Row>({
  caption,
  showCaption = false,
  columns,
  rows,
  empty,
  children,
}: DataTableProps<Row>) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty !== undefined && (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          )}
          {rows.map(children)}
        </tbody>
      </table>
    </div>
  );
}
