/**
 * The HTML of the access application form (contract §5): self-contained pages (no external assets),
 * labelled fields, messages tied to their fields. Everything echoed is escaped.
 */

export interface FormValues {
  name: string;
  usage: string;
  email: string;
}

export interface PlanInfo {
  name: string;
  dailyLimit: number | null;
  description: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `
  body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9;margin:0}
  main{max-width:40rem;margin:0 auto;padding:2rem 1rem}
  h1{font-size:1.75rem;margin:0 0 .5rem}
  .field{margin:1.25rem 0}
  label{display:block;font-weight:600}
  .hint{margin:.125rem 0 .375rem;color:#4a5360;font-size:.9rem}
  input,textarea{box-sizing:border-box;width:100%;padding:.5rem;font:inherit;border:2px solid #5b6470;border-radius:4px;background:#fff}
  input:focus,textarea:focus{outline:3px solid #ffbf47;outline-offset:0}
  [aria-invalid=true]{border-color:#b3261e}
  .error{color:#b3261e;font-weight:600;margin:.25rem 0}
  .summary{border:3px solid #b3261e;padding:.75rem 1rem;background:#fff;margin:1rem 0}
  .summary h2{font-size:1.1rem;margin:0 0 .5rem}
  .summary a{color:#b3261e}
  button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border:0;border-radius:4px;background:#1d6b3a;color:#fff;cursor:pointer}
  button:focus{outline:3px solid #ffbf47}
  table{border-collapse:collapse;margin:.5rem 0}
  th,td{text-align:left;padding:.25rem 1rem .25rem 0;border-bottom:1px solid #d5d9de}
  code{background:#e9ecef;padding:0 .25rem;border-radius:3px}
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Match Prediction API</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

interface FieldSpec {
  id: keyof FormValues;
  label: string;
  hint: string;
  control: (attrs: string, value: string) => string;
}

const FIELDS: FieldSpec[] = [
  {
    id: 'name',
    label: 'Name or organisation',
    hint: 'The person or organisation the key is for.',
    control: (attrs, value) => `<input type="text" ${attrs} autocomplete="organization" minlength="2" maxlength="200" value="${escapeHtml(value)}">`,
  },
  {
    id: 'usage',
    label: 'Intended usage',
    hint: 'Your project or integration: what you will build with the predictions and roughly how many requests a day.',
    control: (attrs, value) => `<textarea ${attrs} rows="6" minlength="10" maxlength="2000">${escapeHtml(value)}</textarea>`,
  },
  {
    id: 'email',
    label: 'Contact e-mail',
    hint: 'We send your API key to this address.',
    control: (attrs, value) => `<input type="email" ${attrs} autocomplete="email" maxlength="254" spellcheck="false" value="${escapeHtml(value)}">`,
  },
];

const formatLimit = (limit: number | null) => (limit === null ? 'set per key' : `${limit.toLocaleString('en-US')} requests/day`);

/** The form, empty or shown again with the applicant's input and the messages per field. */
export function applicationFormPage(opts: { values?: Partial<FormValues>; fields?: Record<string, string[]>; message?: string; plans?: PlanInfo[] } = {}): string {
  const values = opts.values ?? {};
  const fields = opts.fields ?? {};
  const problems = FIELDS.filter((f) => fields[f.id]?.length);
  const other = opts.message && !problems.length ? opts.message : undefined;
  const summary =
    problems.length || other
      ? `<div class="summary" role="alert" aria-labelledby="summary-title">
<h2 id="summary-title">There is a problem</h2>
<ul>
${problems.map((f) => fields[f.id].map((m) => `<li><a href="#${f.id}">${escapeHtml(m)}</a></li>`).join('\n')).join('\n')}${other ? `<li>${escapeHtml(other)}</li>` : ''}
</ul>
</div>`
      : '';
  const controls = FIELDS.map((f) => {
    const errors = fields[f.id] ?? [];
    const describedBy = [`${f.id}-hint`, ...(errors.length ? [`${f.id}-error`] : [])].join(' ');
    const attrs = `id="${f.id}" name="${f.id}" required aria-describedby="${describedBy}"${errors.length ? ' aria-invalid="true"' : ''}`;
    return `<div class="field">
<label for="${f.id}">${f.label}</label>
<p class="hint" id="${f.id}-hint">${f.hint}</p>
${errors.length ? `<p class="error" id="${f.id}-error">${errors.map(escapeHtml).join(' ')}</p>\n` : ''}${f.control(attrs, values[f.id] ?? '')}
</div>`;
  }).join('\n');
  const plans = opts.plans?.length
    ? `<h2>Plans</h2>
<table>
<thead><tr><th scope="col">Plan</th><th scope="col">Daily requests</th><th scope="col"></th></tr></thead>
<tbody>
${opts.plans.map((p) => `<tr><td>${escapeHtml(p.name)}</td><td>${escapeHtml(formatLimit(p.dailyLimit))}</td><td>${escapeHtml(p.description)}</td></tr>`).join('\n')}
</tbody>
</table>
<p>Quotas reset at 00:00 UTC. An administrator chooses the plan when approving your application.</p>`
    : '';
  return page(
    problems.length || other ? 'Error: apply for an API key' : 'Apply for an API key',
    `<h1>Apply for an API key</h1>
<p>Every request to the Match Prediction API carries an API key. Tell us who you are and what you will build;
once your application is approved we e-mail you the key, your plan's daily limit and a link to the
<a href="/api/docs/">API reference</a>.</p>
${summary}
<form method="post" action="/apply/">
${controls}
<button type="submit">Send application</button>
</form>
${plans}`,
  );
}

/** After a submission: received, or the same application was already there. */
export function applicationReceivedPage(r: { id: string; status: string; created: boolean; name: string; email: string }): string {
  const next =
    r.status === 'approved'
      ? `It has been approved: the key was sent to <strong>${escapeHtml(r.email)}</strong>.`
      : r.status === 'rejected'
        ? 'It was not approved; you may apply again with more detail about your intended usage.'
        : `An administrator reviews each application. When yours is approved, we send your API key, its daily limit and a link to the <a href="/api/docs/">API reference</a> to <strong>${escapeHtml(r.email)}</strong>.`;
  return page(
    r.created ? 'Application received' : 'Already applied',
    r.created
      ? `<h1>Application received</h1>
<p>Thank you, ${escapeHtml(r.name)}. Your reference: <code>${escapeHtml(r.id)}</code>.</p>
<p>${next}</p>`
      : `<h1>You have already applied</h1>
<p>An application with this e-mail address and intended usage already exists (reference <code>${escapeHtml(r.id)}</code>,
status: ${escapeHtml(r.status)}). No new application was made.</p>
<p>${next}</p>`,
  );
}
