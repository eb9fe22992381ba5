// The dashboard's lists of records: a table with a header a column, and a list of facts (term and value).
import type { ReactNode, TableHTMLAttributes } from 'react';

export interface Column<Row> {
  /** The column's header, unique in its table. */
  header: string;
  /** The header is for screen readers only (a column of buttons). */
  hidden?: boolean;
  cell: (row: Row) => ReactNode;
}

/** A row of `rows` each, under the columns' headers. */
export function Table<Row>({
  columns,
  rows,
  keyOf,
  ...table
}: { columns: Column<Row>[]; rows: readonly Row[]; keyOf: (row: Row) => string } & TableHTMLAttributes<HTMLTableElement>) {
  return (
    <table {...table}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column.header}>
              {column.hidden ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={keyOf(row)}>
            {columns.map((column) => (
              // The header again, for a table shown as cards on small screens (`card-table` in styles.css).
              <td key={column.header} data-label={column.hidden ? undefined : column.header}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Terms and their values, in order. */
export function Facts({ facts }: { facts: { term: string; value: ReactNode }[] }) {
  return <dl className="facts">{facts.map(({ term, value }) => [<dt key={`${term}:term`}>{term}</dt>, <dd key={`${term}:value`}>{value}</dd>])}</dl>;
}
