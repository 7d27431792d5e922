/**
 * The SQL pack's report view (its module's `reportView`, bundled into the report and the
 * dashboard). A counterexample `{database: {TABLE: [row objects]}, expected, actual, message}`
 * is the smallest database on which the query and the reference differ, each table a small
 * table, then the rows expected against the rows the query returned. A failing input that is
 * such a database (the SQL pack's first failures carry it as JSON) is shown as tables too.
 * Given the report's kit (src/report/app/view-kit.js), it imports nothing from the report.
 */

/** @param {unknown} value */
const isRow = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @param {unknown} value a database: every value an array of row objects */
function isDatabase(value) {
  if (!isRow(value)) return false;
  const tables = Object.values(/** @type {object} */ (value));
  return tables.length > 0 && tables.every((rows) => Array.isArray(rows) && rows.every(isRow));
}

/** @param {unknown} value */
const isSqlCounterexample = (value) =>
  isRow(value) && isDatabase(/** @type {{ database?: unknown }} */ (value).database);

/** @param {import('../../report/app/view-kit.js').ViewKit} kit */
export default function registerSqlViews(kit) {
  const { html } = kit;

  /** @param {{ cell: unknown }} props */
  function Cell({ cell }) {
    if (cell === null || cell === undefined) return html`<td class="null">NULL</td>`;
    if (typeof cell === 'number') return html`<td class="num">${String(cell)}</td>`;
    return html`<td>${typeof cell === 'string' ? cell : JSON.stringify(cell)}</td>`;
  }

  /** @param {{ name: string, rows: Record<string, unknown>[] }} props */
  function Table({ name, rows }) {
    if (rows.length === 0) return html`<p class="db-empty"><span class="db-name">${name}</span> no rows</p>`;
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
    return html`<table class="rows" data-table=${name}>
      <caption>
        <span class="db-name">${name}</span> <span class="muted">${rows.length} ${rows.length === 1 ? 'row' : 'rows'}</span>
      </caption>
      <thead>
        <tr>
          ${columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map((row) => html`<tr>${columns.map((c) => html`<${Cell} cell=${row[c]} />`)}</tr>`)}
      </tbody>
    </table>`;
  }

  /** @param {{ value: Record<string, Record<string, unknown>[]> }} props */
  function DatabaseTables({ value }) {
    return html`<div class="db">
      ${Object.entries(value).map(([name, rows]) => html`<${Table} key=${name} name=${name} rows=${rows} />`)}
    </div>`;
  }

  /** @param {{ value: { database: Record<string, Record<string, unknown>[]>, expected?: string, actual?: string, message?: string } }} props */
  function SqlCounterexample({ value }) {
    return html`<div class="cx cx-sql">
      ${value.message && html`<p class="cx-message">${value.message}</p>`}
      <p class="muted small">The smallest database on which the query and the reference differ:</p>
      <${DatabaseTables} value=${value.database} />
      <p class="muted small">Rows the reference returns (expected) against the query's (actual):</p>
      <${kit.ExpectedActual} expected=${value.expected} actual=${value.actual} lines />
    </div>`;
  }

  kit.registerCounterexampleView({ name: 'sql-database', matches: isSqlCounterexample, render: SqlCounterexample });
  kit.registerInputView({ name: 'sql-database', matches: isDatabase, render: DatabaseTables });
}
