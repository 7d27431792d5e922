/**
 * Counters for `GET /metrics`, in Prometheus text format (version 0.0.4). Hand-written:
 * a few counters and two histograms do not justify a client library.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

class Histogram {
  readonly counts = new Map<string, number[]>();
  readonly sums = new Map<string, number>();
  readonly totals = new Map<string, number>();

  observe(labels: string, seconds: number): void {
    let counts = this.counts.get(labels);
    if (!counts) {
      counts = BUCKETS.map(() => 0);
      this.counts.set(labels, counts);
    }
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) counts![i]!++;
    });
    this.sums.set(labels, (this.sums.get(labels) ?? 0) + seconds);
    this.totals.set(labels, (this.totals.get(labels) ?? 0) + 1);
  }

  render(name: string, help: string): string[] {
    const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
    for (const [labels, counts] of this.counts) {
      const total = this.totals.get(labels) ?? 0;
      const sep = labels ? ',' : '';
      BUCKETS.forEach((le, i) => lines.push(`${name}_bucket{${labels}${sep}le="${le}"} ${counts[i]}`));
      lines.push(`${name}_bucket{${labels}${sep}le="+Inf"} ${total}`);
      lines.push(`${name}_sum{${labels}} ${this.sums.get(labels) ?? 0}`);
      lines.push(`${name}_count{${labels}} ${total}`);
    }
    return lines;
  }
}

const label = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

export class Metrics {
  private readonly executions = new Map<string, number>();
  private readonly requests = new Map<string, number>();
  private readonly executionSeconds = new Histogram();
  private readonly requestSeconds = new Histogram();
  noVerdicts = 0;
  /** Results of a queued job after its first (a retried job whose worker had already answered): dropped. */
  duplicateResults = 0;

  recordExecution(language: string, status: string, seconds: number): void {
    const key = `language="${label(language)}",status="${label(status)}"`;
    this.executions.set(key, (this.executions.get(key) ?? 0) + 1);
    this.executionSeconds.observe(`language="${label(language)}"`, seconds);
    if (status === 'no-verdict') this.noVerdicts++;
  }

  recordDuplicateResult(): void {
    this.duplicateResults++;
  }

  recordRequest(route: string, code: number, seconds: number): void {
    const key = `route="${label(route)}",code="${code}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    this.requestSeconds.observe(`route="${label(route)}"`, seconds);
  }

  render(load: { queued: number; running: number; workers: number }): string {
    const lines: string[] = [];
    const counter = (name: string, help: string, values: Map<string, number>) => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
      for (const [labels, n] of values) lines.push(`${name}{${labels}} ${n}`);
    };
    const gauge = (name: string, help: string, value: number) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
    counter('crucible_executions_total', 'Programs executed, by language and outcome.', this.executions);
    lines.push(
      '# HELP crucible_no_verdict_total Executions where the sandbox failed (not the program).',
      '# TYPE crucible_no_verdict_total counter',
      `crucible_no_verdict_total ${this.noVerdicts}`,
    );
    lines.push(
      ...this.executionSeconds.render('crucible_execution_seconds', 'Time to run one program, queueing included.'),
    );
    counter(
      'crucible_http_requests_total',
      'HTTP requests, by route and status code (499: the client left before its answer).',
      this.requests,
    );
    lines.push(...this.requestSeconds.render('crucible_http_request_seconds', 'Time to answer an HTTP request.'));
    gauge('crucible_queue_depth', 'Programs waiting for a worker.', load.queued);
    gauge('crucible_executions_running', 'Programs running now.', load.running);
    gauge(
      'crucible_workers',
      'Warm sandboxed workers per language: of the local pool, or of the live crucible workers behind the queue.',
      load.workers,
    );
    lines.push(
      '# HELP crucible_queue_duplicate_results_total Results of a queued job after its first (a job retried after its worker died): dropped, never counted twice.',
      '# TYPE crucible_queue_duplicate_results_total counter',
      `crucible_queue_duplicate_results_total ${this.duplicateResults}`,
    );
    return lines.join('\n') + '\n';
  }
}
