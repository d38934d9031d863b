/**
 * The server's counters in the Prometheus text format (`GET /metrics`): requests and their latencies by
 * route and status, and the memory's counters summed over the tenants this server has served.
 */
import type { MemoryStats } from '../memory/memory-api.js';

/** Upper bounds of the latency histogram, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface RouteSeries {
  method: string;
  route: string;
  status: number;
  count: number;
}

interface LatencySeries {
  method: string;
  route: string;
  buckets: number[];
  count: number;
  sum: number;
}

/** A label value with `\`, `"` and line breaks escaped. */
function label(value: string): string {
  return value.replace(/\\/gu, '\\\\').replace(/"/gu, '\\"').replace(/\n/gu, '\\n');
}

export class ServerMetrics {
  private readonly requests = new Map<string, RouteSeries>();
  private readonly latencies = new Map<string, LatencySeries>();

  /** Count one answered request; `route` is its pattern (`/api/sessions/:sessionId`), never a raw path. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const requestKey = `${method} ${route} ${status}`;
    const series = this.requests.get(requestKey) ?? { method, route, status, count: 0 };
    series.count += 1;
    this.requests.set(requestKey, series);
    const latencyKey = `${method} ${route}`;
    const latency = this.latencies.get(latencyKey) ?? { method, route, buckets: BUCKETS.map(() => 0), count: 0, sum: 0 };
    BUCKETS.forEach((bound, index) => {
      if (seconds <= bound) latency.buckets[index] = (latency.buckets[index] ?? 0) + 1;
    });
    latency.count += 1;
    latency.sum += seconds;
    this.latencies.set(latencyKey, latency);
  }

  /** The exposition text, with the memory's counters (summed over tenants) appended. */
  render(memory: MemoryStats): string {
    const lines: string[] = [];
    lines.push('# HELP strata_http_requests_total HTTP requests answered, by route pattern and status.', '# TYPE strata_http_requests_total counter');
    for (const series of this.requests.values()) {
      lines.push(`strata_http_requests_total{method="${series.method}",route="${label(series.route)}",status="${series.status}"} ${series.count}`);
    }
    lines.push('# HELP strata_http_request_duration_seconds Time to answer an HTTP request.', '# TYPE strata_http_request_duration_seconds histogram');
    for (const series of this.latencies.values()) {
      const labels = `method="${series.method}",route="${label(series.route)}"`;
      BUCKETS.forEach((bound, index) => lines.push(`strata_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${series.buckets[index] ?? 0}`));
      lines.push(`strata_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${series.count}`);
      lines.push(`strata_http_request_duration_seconds_sum{${labels}} ${series.sum}`, `strata_http_request_duration_seconds_count{${labels}} ${series.count}`);
    }
    const counter = (name: string, help: string, value: number): void => {
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`, `${name} ${value}`);
    };
    counter('strata_turns_total', 'Turns stored.', memory.turns);
    counter('strata_memory_model_calls_total', 'Memory-model calls, every attempt counted.', memory.memoryModelCalls);
    counter('strata_memory_fallbacks_total', 'Turns whose memory fell back to the raw exchange.', memory.fallbacks);
    counter('strata_memory_retry_attempts_total', 'Background attempts at flagged turns.', memory.retryAttempts);
    lines.push('# HELP strata_memory_retry_queue_depth Turns waiting in the retry queue now.', '# TYPE strata_memory_retry_queue_depth gauge', `strata_memory_retry_queue_depth ${memory.pendingRetries}`);
    return `${lines.join('\n')}\n`;
  }
}
