// The dashboard: reads the admin API's small JSON views every 10 s and draws them with charts.js.
// Each panel's data-state (loading / ready / empty / error) tells a person, and the browser test, what it shows.
import * as charts from './charts.js';

const REFRESH_MS = 10000;
let minutes = 15;
let timer = null;

async function opsApi(path) {
  const response = await fetch(`../api/ops/${path}`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

function api(path) {
  return opsApi(`dashboard/${path}`);
}

function panel(id) {
  const node = document.getElementById(id);
  return { node, svg: node.querySelector('svg'), tbody: node.querySelector('tbody'), error: node.querySelector('.error') };
}

function setState(id, state, message = '') {
  const p = panel(id);
  p.node.dataset.state = state;
  if (p.error) p.error.textContent = message;
}

function text(id, value) {
  document.getElementById(id).textContent = value;
}

function cell(row, value, cls) {
  const td = row.insertCell();
  td.textContent = value ?? '';
  if (cls) td.className = cls;
  return td;
}

function drawIngest(series) {
  const times = series.points.map(p => new Date(p.at));
  const firsts = series.points.map(p => p.deliveries - p.retries);
  const filled = charts.columns(panel('ingest').svg, {
    times,
    series: [
      { name: 'first attempts', cls: 'first', values: firsts },
      { name: 'retries', cls: 'retry', values: series.points.map(p => p.retries) },
      { name: 'rejected', cls: 'rejected', values: series.points.map(p => p.rejected) },
      { name: 'failed (503)', cls: 'failed', values: series.points.map(p => p.failed) },
    ],
  });
  setState('ingest', filled > 0 ? 'ready' : 'empty');
  panel('ingest').node.dataset.columns = filled;

  const points = charts.lines(panel('latency').svg, {
    times,
    unit: 'ms',
    guide: { value: 5000, label: 'WeCom gives up at 5 s' },
    series: [
      { name: 'p50', cls: 'p50', values: series.points.map(p => p.ackP50Ms ?? null) },
      { name: 'p95', cls: 'p95', values: series.points.map(p => p.ackP95Ms ?? null) },
      { name: 'max', cls: 'max', values: series.points.map(p => p.ackMaxMs ?? null) },
    ],
  });
  setState('latency', points > 0 ? 'ready' : 'empty');
  panel('latency').node.dataset.points = points;

  const total = series.points.reduce((s, p) => s + p.deliveries, 0);
  const rejected = series.points.reduce((s, p) => s + p.rejected, 0);
  text('kpi-deliveries', charts.fmt(total));
  text('kpi-rejected', charts.fmt(rejected));
  const latest = [...series.points].reverse().find(p => p.ackP95Ms != null);
  text('kpi-ack', latest ? `≤ ${charts.fmt(latest.ackP95Ms)} ms` : '–');
  const rates = Object.entries(series.retryRate || {}).filter(([, r]) => r.eventKeys > 0);
  text('kpi-retry', rates.length ? rates.map(([app, r]) => `${app} ${r.ratio.toFixed(2)}`).join(' · ') : '–');
  document.getElementById('kpi-retry').classList.toggle('long', rates.length > 1);
}

function drawTimeline(keys) {
  const dots = charts.retryTimeline(panel('timeline').svg, keys);
  setState('timeline', keys.length ? 'ready' : 'empty');
  panel('timeline').node.dataset.keys = keys.length;
  panel('timeline').node.dataset.retries = keys.reduce((s, k) => s + k.deliveries.filter(d => d.attempt > 1).length, 0);
  return dots;
}

function dispositionClass(name) {
  if (name === 'PROCESSED') return 'processed';
  if (name.startsWith('DUPLICATE')) return 'duplicate';
  if (name.startsWith('FAIL')) return 'failed-d';
  return 'other';
}

function drawConsumers(view) {
  const handlers = Object.entries(view.dispositions || {});
  if (handlers.length) {
    charts.hbars(panel('dispositions').svg, {
      rows: handlers.map(([handler, counts]) => ({
        label: handler,
        note: Object.entries(counts).map(([d, n]) => `${d.toLowerCase()} ${n}`).join(', '),
        segments: Object.entries(counts).map(([d, n]) => ({ name: d, cls: dispositionClass(d), value: n })),
      })),
    });
  }
  setState('dispositions', handlers.length ? 'ready' : 'empty');

  const tbody = panel('cleanup').tbody;
  tbody.replaceChildren();
  for (const run of view.cleanups || []) {
    const row = tbody.insertRow();
    cell(row, run.job);
    cell(row, new Date(run.finishedAt).toLocaleString());
    cell(row, run.ok ? 'ok' : `failed: ${run.error ?? ''}`, run.ok ? '' : 'bad');
    cell(row, run.rowsRemoved, 'num');
    cell(row, `${run.tookMillis} ms`, 'num');
  }
  setState('cleanup', (view.cleanups || []).length ? 'ready' : 'empty');
}

function drawQueues(snapshot) {
  const queues = snapshot.queues || [];
  if (queues.length) {
    charts.hbars(panel('queues').svg, {
      rows: queues.map(q => {
        const dead = q.queue === 'DLQ' || q.queue.startsWith('DLQ.');
        const expiry = q.queue === 'ExpiryQueue' || q.queue.startsWith('EXP.');
        return {
          label: q.queue,
          note: `${q.messages} msg · ${q.consumers} cons`,
          segments: [{ name: 'messages', cls: dead ? 'dlq' : expiry ? 'expiry' : 'queue', value: q.messages }],
        };
      }),
    });
  }
  const dlq = queues.filter(q => q.queue === 'DLQ' || q.queue.startsWith('DLQ.')).reduce((s, q) => s + q.messages, 0);
  text('kpi-dlq', queues.length ? charts.fmt(dlq) : '–');
  const stale = snapshot.error ? `broker: ${snapshot.error}${snapshot.readAt ? ` (values from ${new Date(snapshot.readAt).toLocaleTimeString()})` : ''}` : '';
  setState('queues', queues.length ? 'ready' : snapshot.error ? 'error' : 'empty', stale);
  panel('queues').node.dataset.queues = queues.length;
}

function drawRejections(rows) {
  const tbody = panel('rejections').tbody;
  tbody.replaceChildren();
  for (const r of rows) {
    const row = tbody.insertRow();
    cell(row, new Date(r.lastSeen).toLocaleTimeString());
    cell(row, r.app);
    cell(row, r.reason, 'bad');
    cell(row, r.count, 'num');
    cell(row, r.lastRemoteAddr);
    cell(row, r.sample, 'sample').title = r.sample ?? '';
  }
  setState('rejections', rows.length ? 'ready' : 'empty');
  panel('rejections').node.dataset.rows = rows.length;
}

const VERDICTS = {
  COVERS: { cls: 'covers', text: 'covers' },
  WITHIN_IMPLIED: { cls: 'tight', text: '⚠ below recommended' },
  SHORTER_THAN_IMPLIED: { cls: 'short', text: '⚠ shorter than implied' },
  NO_HOT_TIER: { cls: 'na', text: 'hot tier off' },
  NOT_APPLICABLE: { cls: 'na', text: 'no dedup record' },
  NO_DATA: { cls: 'na', text: 'nothing measured' },
};

function drawRetrySpan(report) {
  const p = panel('retryspan');
  const summary = p.node.querySelector('.summary');
  const list = p.node.querySelector('.warnings');
  list.replaceChildren();
  p.node.dataset.status = report.status;
  p.node.dataset.warnings = report.warnings.length;
  if (report.status !== 'MEASURED') {
    summary.textContent = `${charts.fmt(report.deliveries)} deliveries, none repeated. Hot windows: `
      + report.handlers.map(h => `${h.handler} ${h.verdict === 'NOT_APPLICABLE' ? 'n/a' : charts.duration(h.hotWindowSeconds)}`).join(', ');
    setState('retryspan', 'empty');
    return;
  }
  const implied = { lowerSeconds: report.impliedLowerSeconds, upperSeconds: report.impliedUpperSeconds };
  p.node.dataset.p99 = report.p99SpanSeconds;
  summary.textContent = `P99 span ${charts.duration(report.p99SpanSeconds)} (max ${charts.duration(report.maxSpanSeconds)}) over `
    + `${charts.fmt(report.repeatedEvents)} repeated of ${charts.fmt(report.newEvents)} events → hot window `
    + `${charts.duration(implied.lowerSeconds)} – ${charts.duration(implied.upperSeconds)}; configure at least ${charts.duration(Math.ceil(implied.upperSeconds))}.`; // as recommendedHotWindow
  charts.windowCompare(p.svg, {
    p99: report.p99SpanSeconds,
    lower: implied.lowerSeconds,
    upper: implied.upperSeconds,
    rows: report.handlers.map(h => {
      const v = VERDICTS[h.verdict] || VERDICTS.NO_DATA;
      const window = h.hotWindowSeconds > 0 ? charts.duration(h.hotWindowSeconds) : '';
      return { label: h.handler, seconds: h.hotWindowSeconds, cls: v.cls, verdict: h.verdict, note: [window, v.text].filter(Boolean).join(' · ') };
    }),
  });
  for (const warning of report.warnings) {
    const item = document.createElement('li');
    item.className = 'warning';
    item.textContent = warning;
    list.appendChild(item);
  }
  setState('retryspan', 'ready');
}

function welcomeStatusClass(status) {
  if (status === 'SENT') return 'good';
  if (status === 'ALREADY_SENT') return 'warn';
  return 'bad';
}

function drawWelcomes(rows) {
  const tbody = panel('welcomes').tbody;
  tbody.replaceChildren();
  for (const w of rows) {
    const row = tbody.insertRow();
    cell(row, new Date(w.recordedAt).toLocaleTimeString());
    cell(row, w.app);
    cell(row, w.code, 'code');
    cell(row, w.status, welcomeStatusClass(w.status));
    cell(row, w.latencyMs == null ? '–' : w.latencyMs < 10000 ? `${w.latencyMs} ms` : `${(w.latencyMs / 1000).toFixed(1)} s`, 'num');
    row.insertCell().appendChild(charts.latencyBar(w.latencyMs ?? null, 20000));
    cell(row, w.errcode ?? '–', 'num');
  }
  setState('welcomes', rows.length ? 'ready' : 'empty');
  panel('welcomes').node.dataset.rows = rows.length;
}

function reconcileStateClass(state) {
  if (state === 'DONE') return 'good';
  if (state === 'RUNNING') return 'warn';
  return 'bad';
}

function drawReconcile(runs) {
  const tbody = panel('reconcile').tbody;
  tbody.replaceChildren();
  for (const r of runs) {
    const row = tbody.insertRow();
    cell(row, new Date(r.startedAt).toLocaleString());
    cell(row, r.app);
    cell(row, r.state + (r.resumes ? ` (resumed ${r.resumes}×)` : ''), reconcileStateClass(r.state));
    for (const n of [r.pages, r.recordsSeen, r.recordsNew, r.recordsKnown, r.markedGone, r.apiCalls, r.errors]) {
      cell(row, n, 'num');
    }
    cell(row, r.stopReason ?? (r.state === 'RUNNING' ? `paging member chunk ${r.chunkIndex + 1}, ${r.members ?? '?'} members` : ''));
  }
  setState('reconcile', runs.length ? 'ready' : 'empty');
  panel('reconcile').node.dataset.rows = runs.length;
}

function nodeStateClass(state) {
  if (state === 'RUNNING') return 'good';
  if (state === 'STOPPED') return 'warn';
  return 'bad';
}

function drawNodes(nodes) {
  const tbody = panel('nodes').tbody;
  tbody.replaceChildren();
  const ms = v => v == null ? '–' : `${Math.round(v)} ms`;
  for (const n of nodes) {
    const row = tbody.insertRow();
    cell(row, n.thisNode ? `${n.name} (this one)` : n.name);
    cell(row, n.state, nodeStateClass(n.state));
    cell(row, `${n.silentSeconds} s ago`, 'num');
    cell(row, new Date(n.startedAt).toLocaleTimeString());
    cell(row, charts.fmt(n.acceptedLastMinute), 'num');
    cell(row, charts.fmt(n.failedLastMinute), 'num');
    cell(row, ms(n.ackP95Ms), 'num');
    cell(row, ms(n.ackMaxMs), 'num');
    cell(row, charts.fmt(n.relayBacklog), 'num');
  }
  setState('nodes', nodes.length ? 'ready' : 'empty');
  panel('nodes').node.dataset.rows = nodes.length;
}

function drawRelay(status) {
  // rows the ACK path committed that the relay has not yet published (broker down, or catching up)
  const age = status.oldestUnpublishedSeconds > 0 ? ` (oldest ${Math.round(status.oldestUnpublishedSeconds)} s)` : '';
  text('kpi-unpublished', charts.fmt(status.backlog) + age);
}

async function refresh() {
  const jobs = [
    ['ingest', () => api(`ingest?minutes=${minutes}`).then(drawIngest), ['ingest', 'latency']],
    ['timeline', () => api('timeline?minutes=60&keys=12').then(drawTimeline), ['timeline']],
    ['consumers', () => api('consumers').then(drawConsumers), ['dispositions', 'cleanup']],
    ['queues', () => api('queues').then(drawQueues), ['queues']],
    ['relay', () => api('relay').then(drawRelay), []],
    ['nodes', () => api('nodes').then(drawNodes), ['nodes']],
    ['rejections', () => api('rejections?hours=24').then(drawRejections), ['rejections']],
    ['retryspan', () => opsApi('retry-span?period=P7D').then(drawRetrySpan), ['retryspan']],
    ['welcomes', () => api('welcomes?limit=12').then(drawWelcomes), ['welcomes']],
    ['reconcile', () => opsApi('reconcile-runs?limit=8').then(drawReconcile), ['reconcile']],
  ];
  const results = await Promise.allSettled(jobs.map(([, run]) => run()));
  results.forEach((result, i) => {
    if (result.status === 'rejected') jobs[i][2].forEach(id => setState(id, 'error', String(result.reason.message || result.reason)));
  });
  text('refreshed', `updated ${new Date().toLocaleTimeString()} · every ${REFRESH_MS / 1000} s`);
  document.body.dataset.loaded = 'yes';
}

function schedule() {
  clearTimeout(timer);
  refresh().finally(() => { timer = setTimeout(schedule, REFRESH_MS); });
}

document.querySelectorAll('#window button').forEach(button => button.addEventListener('click', () => {
  minutes = Number(button.dataset.minutes);
  document.querySelectorAll('#window button').forEach(b => b.classList.toggle('active', b === button));
  schedule();
}));

let resizing = null;
window.addEventListener('resize', () => { clearTimeout(resizing); resizing = setTimeout(refresh, 300); });

schedule();
