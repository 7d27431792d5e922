/**
 * The SQL pack's report view (its module's `reportView`, bundled into the report and the
 * dashboard). A counterexample `{database: {TABLE: [row objects]}, expected, actual, message}`
 * is the smallest database on which the query and the reference differ, each table a small
 * table, then the rows expected against the rows the query returned. A failing input that is
 * such a database (the SQL pack's first failures carry it as JSON) is shown as tables too. An
 * SQL audit document (`crucible audit` on SQL tasks) has its own view: the references that fail
 * their own checks, the known rewrites that fail, and the injected bugs told apart.
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

  /** @param {{ entry: { name: string }, doc: any }} props */
  function SqlAudit({ entry, doc }) {
    const refs = doc.references;
    const rewrites = doc.rewrites;
    const bugs = doc.bugs;
    return html`<div class="view audit-view">
      <${kit.ViewHeader}
        title=${doc.dataset}
        kind="audit"
        file=${entry.name}
        facts=${[
          ['domain', 'SQL'],
          ['seed', doc.seed === undefined ? undefined : String(doc.seed)],
        ]}
      />
      <section class="cards" aria-label="Summary">
        <div class="card">
          <h2>References</h2>
          <${kit.Figures}
            figures=${[
              { key: 'references', label: 'distinct queries', value: kit.count(refs.total) },
              {
                key: 'references-passing',
                label: 'pass their own checks',
                value: kit.count(refs.total - refs.failing.length),
                note: kit.percent(refs.total ? (refs.total - refs.failing.length) / refs.total : undefined),
              },
            ]}
          />
        </div>
        <div class="card">
          <h2>Known rewrites</h2>
          <${kit.Figures}
            figures=${[
              { key: 'rewrites', label: 'rewrites', value: kit.count(rewrites.total) },
              { key: 'rewrites-passing', label: 'pass', value: kit.count(rewrites.total - rewrites.failing.length) },
            ]}
          />
        </div>
        ${
          bugs &&
          html`<div class="card">
          <h2>Injected bugs</h2>
          <${kit.Figures}
            figures=${[
              { key: 'bugs', label: 'told apart from the reference', value: kit.count(bugs.injected) },
              {
                key: 'bugs-base',
                label: "on the task's own database",
                value: kit.count(bugs.caughtByBase),
                note: kit.percent(bugs.injected ? bugs.caughtByBase / bugs.injected : undefined),
              },
              {
                key: 'bugs-generated',
                label: 'only on generated databases',
                value: kit.count(bugs.injected - bugs.caughtByBase),
              },
              { key: 'bugs-syntax', label: 'syntax faults rejected', value: kit.count(bugs.syntax) },
            ]}
          />
        </div>`
        }
      </section>
      <section class="card audit-list" aria-labelledby="sql-references-title" data-list="failing-references">
        <h2 id="sql-references-title">References that fail their own checks <span class="muted" data-count>${kit.count(refs.failing.length)}</span></h2>
        ${
          refs.failing.length === 0
            ? html`<p class="empty-list">None: every reference runs and gives a result on its database.</p>`
            : refs.failing.map(
                (f) => html`<article class="audit-entry" data-task=${f.task_id}>
                  <header class="ae-head"><span class="mono ae-task">${f.task_id}</span></header>
                  <pre class="message">${f.why}</pre>
                </article>`,
              )
        }
      </section>
      <section class="card audit-list" aria-labelledby="sql-rewrites-title" data-list="failing-rewrites">
        <h2 id="sql-rewrites-title">Known rewrites judged different <span class="muted" data-count>${kit.count(rewrites.failing.length)}</span></h2>
        <p class="muted small">A dataset's other gold queries for the same question must pass: each that fails is a fact about the dataset or about the checks.</p>
        ${
          rewrites.failing.length === 0
            ? html`<p class="empty-list">None: every known rewrite passes.</p>`
            : rewrites.failing.map(
                (f) => html`<article class="audit-entry" data-task=${f.task_id}>
                  <header class="ae-head"><span class="mono ae-task">${f.task_id}</span></header>
                  <${kit.Program} source=${f.sql} language="sql" label=${`rewrite of ${f.task_id}`} />
                  <pre class="message">${f.why}</pre>
                </article>`,
              )
        }
      </section>
    </div>`;
  }

  kit.registerCounterexampleView({ name: 'sql-database', matches: isSqlCounterexample, render: SqlCounterexample });
  kit.registerInputView({ name: 'sql-database', matches: isDatabase, render: DatabaseTables });
  kit.registerAuditView({
    name: 'sql-audit',
    matches: (doc) => Array.isArray(/** @type {{ failing?: unknown } | undefined} */ (doc.references)?.failing),
    render: SqlAudit,
  });
}
