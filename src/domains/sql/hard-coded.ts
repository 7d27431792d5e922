/**
 * The bug the task's own database cannot show: a subquery replaced by the value it has there
 * (`= (SELECT MAX(population) FROM city …)` → `= 2300`). The query is then right on that
 * database and wrong wherever the value differs, which only a generated database shows.
 */
import { formatValue } from './compare.js';
import { scalarSubqueries, type QueryMutant } from './mutants.js';
import type { RunQuery } from './schema.js';

export async function hardCodedValues(run: RunQuery, sql: string): Promise<QueryMutant[]> {
  const mutants = await Promise.all(
    scalarSubqueries(sql).map(async ({ start, end, query }) => {
      const result = await run(query);
      const value = result.status === 'ok' && result.rows.length === 1 ? result.rows[0]![0] : undefined;
      if (typeof value !== 'number' && typeof value !== 'string') return [];
      return [{ operator: 'hard-coded value', sql: `${sql.slice(0, start)}${formatValue(value)}${sql.slice(end)}` }];
    }),
  );
  return mutants.flat();
}
