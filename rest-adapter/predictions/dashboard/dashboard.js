/*
 * The model dashboard: asks for an API key once (kept in sessionStorage), then reads the prediction
 * API's JSON routes with it, so every request is authenticated and metered like any other, and draws
 * the charts with Chart.js (served by this server). Every chart has a table with the same figures.
 */
'use strict';

(function () {
  const KEY_STORAGE = 'matchday.apiKey';
  const COLOURS = { home: '#1b6ca8', draw: '#6b6b6b', away: '#c75000', accuracy: '#1d6b3a', rps: '#7b3294', diagonal: '#9aa1a9' };
  const RETRAIN_POLL_MS = 5000;
  const charts = {};
  let retrainTimer;

  const $ = (id) => document.getElementById(id);
  const pct = (x, digits = 1) => (x === null || x === undefined ? '–' : `${(100 * x).toFixed(digits)} %`);
  const fixed = (x, digits) => (x === null || x === undefined ? '–' : x.toFixed(digits));

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.detail) || `HTTP ${status}`);
      this.status = status;
    }
  }

  async function api(path) {
    const res = await fetch(path, { headers: { authorization: `Bearer ${sessionStorage.getItem(KEY_STORAGE)}`, accept: 'application/json' } });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new ApiError(res.status, body);
    return body;
  }

  function cell(row, text, numeric, label) {
    const td = document.createElement('td');
    td.textContent = text;
    if (numeric) td.className = 'num';
    // on a narrow screen each row is a card, each cell labelled with its column (dashboard.css)
    if (label) td.dataset.label = label;
    row.appendChild(td);
  }

  function fillTable(id, rows) {
    const body = $(id).querySelector('tbody');
    const labels = [...$(id).querySelectorAll('thead th')].map((th) => th.textContent.trim());
    body.replaceChildren();
    for (const values of rows) {
      const tr = document.createElement('tr');
      values.forEach((v, i) => cell(tr, String(v), i > 0 && /^-?[\d.,]+( %)?$/.test(String(v)), labels[i]));
      body.appendChild(tr);
    }
  }

  /** Narrow screens: a long chart label is split over lines instead of squeezing the bars or being cut. */
  const narrow = () => window.matchMedia('(max-width: 40rem)').matches;
  const when = (iso) => (iso ? iso.slice(0, 16).replace('T', ' ') : '–');

  /** A chart drawn once with its final state (no animation), replaced when the data changes. */
  function draw(id, config, summary) {
    if (charts[id]) charts[id].destroy();
    const canvas = $(id);
    canvas.setAttribute('aria-label', summary);
    config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options);
    charts[id] = new Chart(canvas, config);
  }

  function showVersions(versions) {
    const labels = versions.map((v) => `${v.version} (${v.model})`);
    const accuracy = versions.map((v) => (v.backtest ? 100 * v.backtest.accuracy : null));
    const rps = versions.map((v) => (v.backtest ? v.backtest.rps : null));
    draw(
      'versions-chart',
      {
        type: 'line',
        data: {
          labels,
          datasets: [
            {
              label: 'Backtest accuracy (%)',
              data: accuracy,
              borderColor: COLOURS.accuracy,
              backgroundColor: COLOURS.accuracy,
              yAxisID: 'accuracy',
              pointRadius: 5,
            },
            {
              label: 'RPS (lower is better)',
              data: rps,
              borderColor: COLOURS.rps,
              backgroundColor: COLOURS.rps,
              yAxisID: 'rps',
              pointRadius: 5,
              borderDash: [6, 3],
            },
          ],
        },
        options: {
          scales: {
            accuracy: { type: 'linear', position: 'left', title: { display: true, text: 'accuracy (%)' } },
            rps: { type: 'linear', position: 'right', title: { display: true, text: 'RPS' }, grid: { drawOnChartArea: false } },
          },
        },
      },
      `Line chart of ${versions.length} model versions: ` +
        versions.map((v) => `${v.version} accuracy ${pct(v.backtest && v.backtest.accuracy)}, RPS ${fixed(v.backtest && v.backtest.rps, 4)}`).join('; '),
    );
    fillTable(
      'versions-table',
      versions.map((v) => [
        `${v.version}${v.active ? ' (active)' : ''}`,
        v.model,
        `${v.created_at.slice(0, 10)}, data to ${v.trained_through}`,
        v.backtest ? v.backtest.matches : '–',
        pct(v.backtest && v.backtest.accuracy, 2),
        fixed(v.backtest && v.backtest.rps, 4),
        fixed(v.calibration && v.calibration.ece, 4),
        `${v.live.results} (to ${v.live.ratings_through})`,
      ]),
    );
  }

  function showCalibration(version) {
    const c = version && version.calibration;
    if (!c) {
      $('calibration-caption').textContent = 'No calibration recorded for the active version yet.';
      return;
    }
    const points = (table) => table.bins.filter((b) => b.count > 0).map((b) => ({ x: b.predicted, y: b.observed }));
    const series = [
      ['Home win', 'home'],
      ['Draw', 'draw'],
      ['Away win', 'away'],
    ];
    draw(
      'calibration-chart',
      {
        type: 'scatter',
        data: {
          datasets: [
            ...series.map(([label, key]) => ({
              label: `${label} (ECE ${fixed(c[key].ece, 3)})`,
              data: points(c[key]),
              borderColor: COLOURS[key],
              backgroundColor: COLOURS[key],
              showLine: true,
              pointRadius: 4,
            })),
            {
              label: 'Perfect calibration',
              data: [
                { x: 0, y: 0 },
                { x: 1, y: 1 },
              ],
              borderColor: COLOURS.diagonal,
              borderDash: [4, 4],
              showLine: true,
              pointRadius: 0,
            },
          ],
        },
        options: {
          scales: {
            x: { min: 0, max: 1, title: { display: true, text: 'predicted probability' } },
            y: { min: 0, max: 1, title: { display: true, text: 'observed frequency' } },
          },
        },
      },
      `Reliability diagram of ${version.version}: expected calibration error ${fixed(c.ece, 4)} (home ${fixed(c.home.ece, 4)}, draw ${fixed(c.draw.ece, 4)}, away ${fixed(c.away.ece, 4)}).`,
    );
    const band = (t, i) => (t.bins[i].count ? `${t.bins[i].count}: ${pct(t.bins[i].predicted)} / ${pct(t.bins[i].observed)}` : '–');
    fillTable(
      'calibration-table',
      c.home.bins.map((b, i) => [`${b.from.toFixed(1)}–${b.to.toFixed(1)}`, band(c.home, i), band(c.draw, i), band(c.away, i)]),
    );
  }

  function showConfidence(version, bands) {
    const c = version && version.calibration;
    if (c) {
      const bins = c.confidence.bins.filter((b) => b.count > 0);
      draw(
        'confidence-chart',
        {
          type: 'bar',
          data: {
            labels: bins.map((b) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`),
            datasets: [
              { type: 'bar', label: 'Forecasts', data: bins.map((b) => b.count), backgroundColor: COLOURS.home, yAxisID: 'count' },
              {
                type: 'line',
                label: 'Hit rate (%)',
                data: bins.map((b) => 100 * b.observed),
                borderColor: COLOURS.away,
                backgroundColor: COLOURS.away,
                yAxisID: 'rate',
                pointRadius: 4,
              },
            ],
          },
          options: {
            scales: {
              x: { title: { display: true, text: 'confidence' } },
              count: { type: 'linear', position: 'left', title: { display: true, text: 'forecasts' } },
              rate: { type: 'linear', position: 'right', min: 0, max: 100, title: { display: true, text: 'hit rate (%)' }, grid: { drawOnChartArea: false } },
            },
          },
        },
        'Confidence histogram: ' + bins.map((b) => `${b.from.toFixed(1)} to ${b.to.toFixed(1)}: ${b.count} forecasts, ${pct(b.observed)} right`).join('; '),
      );
    }
    fillTable('confidence-table', [
      ['High', '≥ 0.60', bands.high_confidence],
      ['Medium', '0.45–0.60', bands.medium_confidence],
      ['Low', '< 0.45', bands.low_confidence],
    ]);
  }

  function showFixtures(fixtures) {
    const labels = fixtures.map((f) => (narrow() ? [f.home_team, `vs ${f.away_team}`] : `${f.home_team} vs ${f.away_team}`));
    const series = [
      ['Home win', 'home'],
      ['Draw', 'draw'],
      ['Away win', 'away'],
    ];
    draw(
      'fixtures-chart',
      {
        type: 'bar',
        data: {
          labels,
          datasets: series.map(([label, key]) => ({ label, data: fixtures.map((f) => 100 * f.probabilities[key]), backgroundColor: COLOURS[key] })),
        },
        options: {
          indexAxis: 'y',
          scales: { x: { stacked: true, min: 0, max: 100, title: { display: true, text: 'probability (%)' } }, y: { stacked: true } },
        },
      },
      fixtures.length
        ? 'Stacked bars of the next fixtures: ' +
            fixtures
              .map(
                (f) =>
                  `${f.home_team} vs ${f.away_team}: home ${pct(f.probabilities.home, 0)}, draw ${pct(f.probabilities.draw, 0)}, away ${pct(f.probabilities.away, 0)}`,
              )
              .join('; ')
        : 'No upcoming fixture is known: see “Data” for when each league was last updated.',
    );
    $('fixtures-empty').hidden = fixtures.length > 0;
    fillTable(
      'fixtures-table',
      fixtures.map((f) => [
        f.kickoff.slice(0, 16).replace('T', ' '),
        `${f.home_team} vs ${f.away_team} (${f.competition})`,
        pct(f.probabilities.home),
        pct(f.probabilities.draw),
        pct(f.probabilities.away),
        `${f.predicted_outcome} (${pct(f.confidence, 0)})`,
      ]),
    );
  }

  /** Shows the retrain's progress; polls while one is queued or running, and reloads the rest when it ends. */
  function showRetrain(progress) {
    clearTimeout(retrainTimer);
    const r = progress.retrain;
    const bar = $('retrain-progress');
    if (!r) {
      $('retrain-text').textContent = 'No retrain yet.';
      bar.value = 0;
      return;
    }
    bar.value = Math.round(100 * r.progress);
    const running = r.status === 'queued' || r.status === 'running';
    $('retrain-text').textContent = running
      ? `Retraining (${r.model}): ${r.phase || r.status}, ${Math.round(100 * r.progress)} %.`
      : `Last retrain (${r.model}) ${r.status}${r.version ? `: ${r.version}` : ''}${r.finished_at ? `, ${r.finished_at.slice(0, 16).replace('T', ' ')}` : ''}.`;
    if (running) {
      retrainTimer = setTimeout(async () => {
        try {
          const next = await api('/api/dashboard/retrain/');
          if (!['queued', 'running'].includes(next.retrain && next.retrain.status)) await load();
          else showRetrain(next);
        } catch (err) {
          report(err);
        }
      }, RETRAIN_POLL_MS);
    }
  }

  /** How fresh the data is: the feed, and per league the newest result, the last change and the next kick-off. */
  function showData(info) {
    const feed = info.data.feed;
    $('feed-text').textContent = feed.configured
      ? `Live feed every ${feed.interval_minutes} min. Last pass ${when(feed.last_pass_at)}; last full success ${when(feed.last_success_at)}` +
        (feed.last_error_at && (!feed.last_success_at || feed.last_error_at > feed.last_success_at) ? `; last error ${when(feed.last_error_at)}.` : '.')
      : 'No live feed is configured (FOOTBALL_FEED_URLS): the data changes only when an administrator imports matches.';
    $('data-notice').textContent = info.data.notice || '';
    $('data-notice').hidden = !info.data.notice;
    fillTable(
      'leagues-table',
      info.data.leagues.map((l) => [
        `${l.name} (${l.code})`,
        l.latest_result_date || '–',
        when(l.updated_at),
        l.next_kickoff ? when(l.next_kickoff) : 'none known',
        String(l.upcoming_matches),
        String(l.awaiting_result),
      ]),
    );
  }

  function report(err) {
    if (err instanceof ApiError && err.status === 401) return signOut('That key was not accepted: check it and try again.');
    const quota = err instanceof ApiError && err.status === 429;
    $('status').textContent = quota
      ? "This key's daily quota is used up; the dashboard can load again after 00:00 UTC."
      : `Could not load the dashboard: ${err.message}`;
  }

  async function load() {
    $('status').textContent = 'Loading…';
    try {
      const [versions, bands, fixtures, retrain, info] = await Promise.all([
        api('/api/dashboard/versions/'),
        api('/api/dashboard/confidence/'),
        api('/api/dashboard/fixtures/?limit=10'),
        api('/api/dashboard/retrain/'),
        api('/api/'),
      ]);
      $('sign-in').hidden = true;
      $('dashboard').hidden = false;
      $('signed-in').hidden = false;
      $('key-prefix').textContent = `${sessionStorage.getItem(KEY_STORAGE).slice(0, 12)}…`;
      const active = versions.find((v) => v.active);
      showVersions(versions);
      showCalibration(active);
      showConfidence(active, bands);
      showFixtures(fixtures);
      showRetrain(retrain);
      showData(info);
      $('status').textContent = active
        ? `Active model: ${active.version} (${active.model}). Updated ${new Date().toLocaleTimeString()}.`
        : 'No model version is active yet.';
      document.body.dataset.state = 'ready';
    } catch (err) {
      report(err);
    }
  }

  function signOut(message) {
    clearTimeout(retrainTimer);
    sessionStorage.removeItem(KEY_STORAGE);
    $('dashboard').hidden = true;
    $('signed-in').hidden = true;
    $('sign-in').hidden = false;
    const error = $('key-error');
    error.hidden = !message;
    error.textContent = message || '';
    $('api-key').setAttribute('aria-invalid', message ? 'true' : 'false');
    $('api-key').focus();
  }

  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $('api-key').value.trim();
    if (!key) return signOut('Enter your API key.');
    sessionStorage.setItem(KEY_STORAGE, key);
    $('api-key').value = '';
    $('key-error').hidden = true;
    $('api-key').setAttribute('aria-invalid', 'false');
    void load().then(() => $('main').focus());
  });
  $('sign-out').addEventListener('click', () => signOut());

  if (sessionStorage.getItem(KEY_STORAGE)) void load();
})();
