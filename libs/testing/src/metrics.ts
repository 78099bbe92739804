/**
 * The value of one sample `name{labels} value` in Prometheus text (what GET /metrics answers);
 * undefined when the series has no line (a labelled counter never incremented has none).
 */
export function metricSample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
