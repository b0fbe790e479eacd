// Opens the dashboard in Debian's headless Chromium the way an operator would: logs in, waits until every
// panel has drawn what the server returned, collects what the page shows and saves a screenshot.
// Prints ONE JSON line of findings on stdout (DashboardBrowserIT asserts on it); exit 2 = could not check.
// Env: DASHBOARD_URL (…/dashboard/), DASHBOARD_USER, DASHBOARD_PASSWORD, SCREENSHOT, CHROMIUM (default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.env.DASHBOARD_URL;
const user = process.env.DASHBOARD_USER;
const password = process.env.DASHBOARD_PASSWORD;
const screenshot = process.env.SCREENSHOT || 'dashboard.png';
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
if (!url || !user || !password) {
  console.error('DASHBOARD_URL, DASHBOARD_USER and DASHBOARD_PASSWORD are required');
  process.exit(2);
}

// The flags this machine kind needs: no sandbox as root, and none of Chromium's own network traffic.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const findings = { url, consoleErrors: [], foreignRequests: [], failedRequests: [] };
const profile = mkdtempSync(join(tmpdir(), 'wecom-dashboard-chromium-'));
let context;
try {
  // Without credentials the page must be refused (checked outside the browser: a 401 there pops a dialog).
  findings.anonymousStatus = (await fetch(url, { redirect: 'manual' })).status;

  context = await chromium.launchPersistentContext(profile, {
    executablePath, headless: true, args: FLAGS, httpCredentials: { username: user, password },
    viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, timezoneId: 'Asia/Shanghai', locale: 'en-GB',
  });
  const page = context.pages()[0] || await context.newPage();
  const origin = new URL(url).origin;
  page.on('console', msg => { if (msg.type() === 'error') findings.consoleErrors.push(msg.text()); });
  page.on('pageerror', err => findings.consoleErrors.push(String(err)));
  page.on('request', req => { if (!req.url().startsWith(origin) && !req.url().startsWith('data:')) findings.foreignRequests.push(req.url()); });
  page.on('requestfailed', req => findings.failedRequests.push(req.url()));

  const response = await page.goto(url, { waitUntil: 'load' });
  findings.status = response.status();
  await page.waitForFunction(() => document.body.dataset.loaded === 'yes'
    && ![...document.querySelectorAll('.panel')].some(p => p.dataset.state === 'loading'), null, { timeout: 30000 });

  Object.assign(findings, await page.evaluate(() => {
    const panels = {};
    for (const p of document.querySelectorAll('.panel')) {
      panels[p.id] = { state: p.dataset.state, ...p.dataset, visibleText: p.querySelector('.empty')?.offsetParent ? p.querySelector('.empty').textContent : null };
      delete panels[p.id].state;
      panels[p.id].state = p.dataset.state;
    }
    const count = sel => document.querySelectorAll(sel).length;
    return {
      title: document.title,
      panels,
      bars: count('#ingest rect.bar'),
      latencyPoints: count('#latency circle.point'),
      firstDeliveries: count('#timeline circle.delivery.first'),
      wecomRetries: count('#timeline circle.delivery.wecom-retry'),
      oddRetries: count('#timeline circle.delivery.odd-retry'),
      retryWindows: count('#timeline rect.retry-window'),
      gapLabels: [...document.querySelectorAll('#timeline text.gap')].map(t => t.textContent),
      queueRows: [...document.querySelectorAll('#queues text.row-label')].map(t => t.textContent),
      rejectionReasons: [...document.querySelectorAll('#rejections tbody td.bad')].map(t => t.textContent),
      retrySpan: {
        summary: document.querySelector('#retryspan .summary')?.textContent ?? '',
        p99: Number(document.getElementById('retryspan')?.dataset.p99 ?? NaN),
        handlers: [...document.querySelectorAll('#retryspan g.handler-row')].map(g => ({
          handler: g.dataset.handler, verdict: g.dataset.verdict, bars: g.querySelectorAll('rect.window-bar').length,
          note: g.querySelector('text.row-note')?.textContent ?? '' })),
        impliedBands: count('#retryspan rect.implied-window'),
        p99Lines: count('#retryspan line.p99-line'),
        warnings: [...document.querySelectorAll('#retryspan li.warning')].map(li => li.textContent),
      },
      welcomeRows: [...document.querySelectorAll('#welcomes tbody tr')].map(tr => {
        const cells = [...tr.cells].map(td => td.textContent);
        return { app: cells[1], code: cells[2], status: cells[3], latency: cells[4], errcode: cells[6],
          latencyBars: tr.querySelectorAll('svg.latency-bar rect.bar').length };
      }),
      kpis: Object.fromEntries([...document.querySelectorAll('.kpi')].map(k => [k.querySelector('.name').textContent, k.querySelector('.value').textContent])),
    };
  }));
  await page.screenshot({ path: screenshot, fullPage: true });
  findings.screenshot = screenshot;
  console.log(JSON.stringify(findings));
} catch (e) {
  findings.error = String(e && e.message || e);
  console.log(JSON.stringify(findings));
  process.exitCode = 2;
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}
