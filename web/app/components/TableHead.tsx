// A data table's head: one row of column headers, each a header for its column (scope)
// so a screen reader names the column as it reads a cell.
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
