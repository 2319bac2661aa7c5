import { html, type Raw } from '../../lib/html';
import type { AnyRouteInput, Reply } from '../core/route';
import { consoleDocument, csrfInput, siteNameOf, type ConsoleFrame } from './kit';

/**
 * The consoles' ONE sign-in page: a card with the console's heading, an optional step's explanation
 * (e.g. the one-time-code enrolment), the message of a refused attempt, the form (its CSRF token, its
 * hidden fields, the console's fields) and links under it. A console describes its form once
 * (`SignInForm`) and each of its steps answers `signInPage`; the field names, ids and the form's action
 * are the console's, so its contract (what a browser or a test posts) does not depend on the kit.
 */

export interface SignInField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  /** The element id the label points at (default: the name). */
  id?: string;
  autocomplete: string;
  required?: boolean;
  /** A one-time code of an authenticator app: six digits, the numeric keypad. */
  oneTimeCode?: boolean;
  minLength?: number;
}

export interface SignInForm {
  /** The document's title. */
  title: string;
  /** The card's heading (may name the site). */
  heading: string | ((siteName: string) => string);
  /** Where the form posts. */
  action: string;
  fields: SignInField[];
  submit: string;
  /** Above the form: what this step asks for and why. */
  intro?: Raw;
  /** Under the form. */
  links?: { href: string; label: string }[];
}

export interface SignInState {
  status?: number;
  /** Why the last attempt was refused (shown as an alert in the card). */
  message?: string;
  /** A note for the user (e.g. "your password is set"). */
  notice?: string;
  /** Hidden fields carried by the form (e.g. `next`, an enrolment token). */
  hidden?: Record<string, string>;
  /** The values to show again (never a password: a password field is always empty). */
  values?: Record<string, string>;
}

function field(f: SignInField, value: string | undefined, first: boolean): Raw {
  const id = f.id ?? f.name;
  const kept = f.type === 'password' ? '' : (value ?? '');
  const code = f.oneTimeCode ? html` inputmode="numeric" pattern="[0-9]{6}"` : '';
  const min = f.minLength ? html` minlength="${f.minLength}"` : '';
  return html`<div class="row">
    <label for="${id}">${f.label}</label
    ><input
      type="${f.type}"
      name="${f.name}"
      id="${id}"
      autocomplete="${f.autocomplete}"
      ${code}${min}${f.required === false ? '' : html` required`}${first ? html` autofocus` : ''}
      value="${kept}"
    />
  </div>`;
}

/** The attribute of the kit's sign-in card: how a test tells the kit's sign-in page from a hand-made one. */
export const SIGN_IN_MARK = 'data-kit="sign-in"';

/** The body of a console's sign-in page (the card), for a console that frames it itself. */
export function signInCard(input: AnyRouteInput, siteName: string, form: SignInForm, state: SignInState = {}): Raw {
  const heading = typeof form.heading === 'function' ? form.heading(siteName) : form.heading;
  const hidden = Object.entries(state.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`);
  return html`<div class="login" data-kit="sign-in">
    <h1>${heading}</h1>
    ${form.intro ? html`<div class="intro">${form.intro}</div>` : ''}
    <form method="post" action="${form.action}">
      ${csrfInput(input.csrfToken)}${hidden} ${state.message ? html`<p class="errorlist" role="alert">${state.message}</p>` : ''}
      ${state.notice ? html`<p class="notice" role="status">${state.notice}</p>` : ''} ${form.fields.map((f, i) => field(f, state.values?.[f.name], i === 0))}
      <input type="submit" class="default" value="${form.submit}" />
    </form>
    ${form.links?.length ? html`<p class="links muted">${form.links.map((l) => html`<a href="${l.href}">${l.label}</a> `)}</p>` : ''}
  </div>`;
}

/** A console's sign-in page (or a step of it) as a route's reply: the console's frame, no user, no breadcrumbs. */
export function signInPage(input: AnyRouteInput, frame: ConsoleFrame, form: SignInForm, state: SignInState = {}): Reply {
  const siteName = siteNameOf(input.req, frame);
  return {
    kind: 'html',
    status: state.status,
    html: consoleDocument(frame, { title: form.title, siteName, csrfToken: input.csrfToken, breadcrumbs: [] }, signInCard(input, siteName, form, state)),
  };
}
