import { escapeHtml, html, raw } from '../../lib/html';
import { consoleDocument, type ConsoleFrame } from '../console/kit';
import type { ResultOf } from './operation';
import type { ApplicationConfirmationFieldsFragment } from './operations/types.generated';

export { escapeHtml };

/**
 * The HTML of the access application form (contract §5): self-contained pages (no external assets),
 * labelled fields, messages tied to their fields. Everything echoed is escaped.
 */

export interface FormValues {
  name: string;
  usage: string;
  email: string;
}

/** A plan as the form lists it. */
export type PlanInfo = ResultOf<'ApplicationForm'>['plans'][number];

/** The application pages on the console kit: no header, the kit's stylesheet with the form's colours, a favicon. */
export const APPLY: ConsoleFrame = {
  home: '/apply/',
  label: '',
  defaultSiteName: 'Match Prediction API',
  theme: {
    vars: {
      header: 'none',
      accent: '#1d6b3a',
      link: '#0b5cad',
      background: '#f6f7f9',
      text: '#1b1f24',
      muted: '#4a5360',
      fontSize: '16px',
      width: '40rem',
      focus: '#ffbf47',
    },
    title: (page, siteName) => `${page} · ${siteName}`,
    header: () => html``,
    container: 'main',
    breadcrumbs: false,
    // the surface's own icon (with the kit's stylesheet, the page's only linked resources)
    head: raw('<link rel="icon" href="/favicon.svg" type="image/svg+xml">'),
  },
};

/** A page of its own (its body built here, every echoed value escaped). */
const page = (title: string, body: string): string => consoleDocument(APPLY, { title, siteName: APPLY.defaultSiteName }, raw(body));

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

/**
 * The honeypot: a field people never see or reach (off-screen, out of the tab order, hidden from
 * assistive technology, no autofill), which form-filling bots fill in like any other.
 */
export const HONEYPOT_FIELD = 'website';

const HONEYPOT = `<div class="trap" aria-hidden="true">
<label for="${HONEYPOT_FIELD}">Leave this field empty</label>
<input type="text" id="${HONEYPOT_FIELD}" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off" value="">
</div>`;

const formatLimit = (limit: number | null) => (limit === null ? 'set per key' : `${limit.toLocaleString('en-US')} requests/day`);

/** The form, empty or shown again with the applicant's input and the messages per field. */
export function applicationFormPage(
  opts: { values?: Partial<FormValues>; fields?: Record<string, string[]>; message?: string; plans?: PlanInfo[]; mailbox?: string } = {},
): string {
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
${HONEYPOT}
<button type="submit">Send application</button>
</form>
${
  opts.mailbox
    ? `<h2>Apply by e-mail</h2>
<p>Or write to <a href="mailto:${escapeHtml(opts.mailbox)}?subject=API%20Access%20Request">${escapeHtml(opts.mailbox)}</a> with the subject
<strong>API Access Request</strong>, and these lines in the message:</p>
<pre>Name: your name or organisation
E-mail: where the key should go
Usage: the project or integration you will build</pre>`
    : ''
}
${plans}`,
  );
}

/**
 * After a submission: received, and a link to confirm the address is on its way. The same page
 * whatever existed before (anyone may type any address, so it tells no reference and no status).
 */
export function applicationReceivedPage(): string {
  return page(
    'Application received',
    `<h1>Application received</h1>
<p>Thank you. We have e-mailed a link to the address you gave: <strong>open it to confirm that the address is yours</strong>
(it works for three days). Nothing happens before you confirm.</p>
<p>An administrator then reviews your application. Once it is approved, we e-mail you your API key, the daily limit of its plan
and a link to the <a href="/api/docs/">API reference</a>.</p>
<p>If you applied before with the same address and intended usage, that application stands: no new one is made.</p>`,
  );
}

/** A confirmation link as its page shows it: `confirmedNow` after the button was pressed. */
export type ConfirmationView = ApplicationConfirmationFieldsFragment & { token: string; confirmedNow: boolean };

/** The page behind the link mailed to an applicant: a button to confirm (a POST), the outcome, or an invalid link. */
export function confirmationPage(v: ConfirmationView): string {
  if (v.state === 'invalid') {
    return page(
      'Link not valid',
      `<h1>This link is not valid</h1>
<p>The link is unknown or has expired (links work for three days). <a href="/apply/">Apply again</a> with the same address and
intended usage: we e-mail you a new link.</p>`,
    );
  }
  if (v.state === 'confirmed') {
    return page(
      'E-mail address confirmed',
      `<h1>${v.confirmedNow ? 'Thank you: your e-mail address is confirmed' : 'Your e-mail address is already confirmed'}</h1>
<p>The application for ${escapeHtml(v.name)} is with an administrator. Once it is approved, we e-mail you your API key, the daily
limit of its plan and a link to the <a href="/api/docs/">API reference</a>.</p>`,
    );
  }
  return page(
    'Confirm your e-mail address',
    `<h1>Confirm your e-mail address</h1>
<p>An application for an API key for <strong>${escapeHtml(v.name)}</strong> gave this address. If that was you, confirm it:</p>
<form method="post" action="/apply/confirm/">
<input type="hidden" name="token" value="${escapeHtml(v.token)}">
<button type="submit">Confirm my e-mail address</button>
</form>
<p>If you did not apply, close this page: nothing happens without the confirmation.</p>`,
  );
}
