/** Print a titled two-column table of benchmark figures. */
export function printTable(title: string, rows: ReadonlyArray<readonly [string, string]>): void {
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(title);
  console.log('-'.repeat(width + 50));
  for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
}
