import './style.css';
import { textColorOn } from '../colors';
import { api, ApiError, type Balance, type FeatureFlags, type PublicConfig } from './api';
import { field, h } from './dom';
import { MODULE_PAGES, moduleOperations, type ModulePage } from './modules';

/** The branding baked in by the build (vite-build.mjs): the generic one unless a whitelabel build. */
interface BakedBranding {
  displayName: string;
  custom: boolean;
  logo: string | null;
}

const baked: BakedBranding = JSON.parse(
  document.querySelector<HTMLMetaElement>('meta[name="finance-branding"]')?.content ?? '{"displayName":"Finance","custom":false,"logo":null}',
) as BakedBranding;

const TOKEN_KEY = 'finance.access';
const state: { config: PublicConfig | null; features: FeatureFlags | null; token: string | null; loadError: string | null } = {
  config: null,
  features: null,
  token: sessionStorage.getItem(TOKEN_KEY),
  loadError: null,
};

const root = document.getElementById('root')!;
/** The path the client is served at (its <base href>), e.g. /app/. */
const basePath = new URL(document.baseURI).pathname;

function routeOf(): string {
  const path = location.pathname.startsWith(basePath) ? location.pathname.slice(basePath.length) : '';
  return path.replace(/\/$/, '');
}

function navigate(route: string): void {
  history.pushState(null, '', basePath + (route ? `${route}/` : ''));
  void render(true);
}

function link(route: string, label: string, current: string): HTMLAnchorElement {
  return h(
    'a',
    {
      href: basePath + (route ? `${route}/` : ''),
      'aria-current': current === route ? 'page' : undefined,
      onclick: (event) => {
        const mouse = event as MouseEvent;
        if (mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.button !== 0) return;
        event.preventDefault();
        navigate(route);
      },
    },
    label,
  );
}

function displayName(): string {
  if (baked.custom) return baked.displayName;
  return state.config?.branding.organisation_name || state.config?.app.name || baked.displayName;
}

/** The node's branding colours apply to the generic client; a whitelabel build keeps its own. */
function applyNodeBranding(): void {
  const branding = state.config?.branding;
  if (baked.custom || !branding) return;
  const style = document.documentElement.style;
  if (/^#[0-9a-f]{6}$/i.test(branding.color_primary ?? '')) {
    style.setProperty('--primary', branding.color_primary);
    // the header's and buttons' text stays readable on whatever colour the administrator chose
    style.setProperty('--on-primary', textColorOn(branding.color_primary));
  }
  if (/^#[0-9a-f]{6}$/i.test(branding.color_accent ?? '')) style.setProperty('--accent', branding.color_accent);
}

function enabledModules(): ModulePage[] {
  const modules = state.config?.modules ?? {};
  const features = state.features ?? {};
  // the feature flags are the toggles as last saved; the configuration says the same in its own words
  return MODULE_PAGES.filter((page) => modules[page.key] !== false && features[`${page.key}_enabled`] !== false);
}

async function loadConfiguration(): Promise<void> {
  try {
    const [config, features] = await Promise.all([api.config(), api.features()]);
    state.config = config;
    state.features = features;
    state.loadError = null;
  } catch (error) {
    state.loadError = error instanceof ApiError ? error.message : 'The configuration could not be read.';
  }
  applyNodeBranding();
  document.title = displayName();
}

function banners(): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (state.loadError) out.push(h('div', { class: 'banner banner-error', role: 'alert' }, state.loadError));
  if (state.config?.maintenance.active)
    out.push(
      h(
        'div',
        { class: 'banner banner-maintenance', role: 'status', id: 'maintenance-notice' },
        h('strong', {}, 'Maintenance: '),
        state.config.maintenance.message,
      ),
    );
  if (state.config?.read_only)
    out.push(
      h(
        'div',
        { class: 'banner banner-read-only', role: 'status', id: 'read-only-banner' },
        h('strong', {}, 'Read-only: '),
        'this node has no valid licence, so you can look but not change anything.',
      ),
    );
  return out;
}

function header(current: string): HTMLElement {
  const brand = h(
    'a',
    { class: 'brand', href: basePath },
    baked.logo ? h('img', { src: baked.logo, alt: '', width: '32', height: '32' }) : null,
    h('span', {}, displayName()),
  );
  const nav = state.token
    ? h(
        'nav',
        { 'aria-label': 'Main' },
        h('ul', {}, h('li', {}, link('', 'Balance', current)), ...enabledModules().map((page) => h('li', {}, link(page.slug, page.label, current)))),
      )
    : null;
  const signOut = state.token
    ? h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            state.token = null;
            sessionStorage.removeItem(TOKEN_KEY);
            navigate('');
          },
        },
        'Sign out',
      )
    : null;
  return h('header', { class: 'site-header' }, h('div', { class: 'bar' }, brand, signOut), nav);
}

function errorBox(id: string): HTMLParagraphElement {
  return h('p', { id, class: 'error', role: 'alert', 'aria-live': 'assertive' });
}

function signInView(): HTMLElement {
  const error = errorBox('sign-in-error');
  const otp = field('otp', 'One-time code from your authenticator app', {
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: '6',
  });
  otp.hidden = !state.config?.auth.enforce_2fa;
  const enrolment = h('div', { id: 'enrolment' });
  const form = h(
    'form',
    {
      'aria-labelledby': 'page-title',
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        void submit();
      },
    },
    field('username', 'User name', { autocomplete: 'username', required: true }),
    field('password', 'Password', { type: 'password', autocomplete: 'current-password', required: true }),
    otp,
    error,
    h('button', { type: 'submit' }, 'Sign in'),
  );
  const value = (id: string) => (form.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '').trim();

  async function submit(): Promise<void> {
    error.textContent = '';
    if (!value('username') || !value('password')) {
      error.textContent = 'Enter your user name and password.';
      return;
    }
    try {
      const result = await api.login(value('username'), form.querySelector<HTMLInputElement>('#password')!.value, value('otp') || undefined);
      state.token = result.access;
      sessionStorage.setItem(TOKEN_KEY, result.access);
      navigate('');
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === 'otp_required' || failure.code === 'otp_invalid') {
        otp.hidden = false;
        otp.querySelector('input')!.focus();
      }
      if (failure.code === 'otp_enrolment_required' && typeof failure.body.enrolment_token === 'string') {
        void enrol(failure.body.enrolment_token);
      }
      error.textContent = failure.message;
    }
  }

  /** Sign-in needs 2FA and the user has none yet: enrol here, then sign in with the code. */
  async function enrol(enrolmentToken: string): Promise<void> {
    const started = await api.startEnrolment(enrolmentToken);
    const confirmError = errorBox('enrolment-error');
    enrolment.replaceChildren(
      h('h2', {}, 'Set up two-factor authentication'),
      h('p', {}, 'Add this key to your authenticator app, then enter the code it shows.'),
      h('p', {}, h('code', { id: 'otp-secret' }, started.secret)),
      h(
        'form',
        {
          onsubmit: (event) => {
            event.preventDefault();
            const code = enrolment.querySelector<HTMLInputElement>('#enrol-otp')!.value.trim();
            api.confirmEnrolment(enrolmentToken, code).then(
              () => {
                enrolment.replaceChildren(h('p', { role: 'status' }, 'Two-factor authentication is on. Sign in with a new code.'));
                otp.hidden = false;
              },
              (failure: unknown) => {
                confirmError.textContent = failure instanceof ApiError ? failure.message : 'The code could not be checked.';
              },
            );
          },
        },
        field('enrol-otp', 'Confirmation code from your authenticator app', { inputmode: 'numeric', autocomplete: 'one-time-code', required: true }),
        confirmError,
        h('button', { type: 'submit' }, 'Confirm'),
      ),
    );
  }

  return h('section', { class: 'card narrow' }, h('h1', { id: 'page-title', tabindex: '-1' }, `Sign in to ${displayName()}`), form, enrolment);
}

function balanceTable(balances: Balance[]): HTMLElement {
  if (balances.length === 0) return h('p', { id: 'no-balance' }, 'You hold no money yet.');
  return h(
    'table',
    { id: 'balances' },
    h('caption', {}, 'Your balances'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Currency'),
        h('th', { scope: 'col' }, 'Available'),
        h('th', { scope: 'col' }, 'Posted'),
        h('th', { scope: 'col' }, 'Pending'),
      ),
    ),
    h(
      'tbody',
      {},
      ...balances.map((b) =>
        h(
          'tr',
          { 'data-currency': b.currency },
          h('th', { scope: 'row' }, b.currency),
          h('td', {}, b.available.amount),
          h('td', {}, b.posted.amount),
          h('td', {}, b.pending.amount),
        ),
      ),
    ),
  );
}

function homeView(): HTMLElement {
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading your balance…'));
  api.balance(state.token!).then(
    (result) => body.replaceChildren(balanceTable(result.balances)),
    (failure: unknown) => handleFailure(failure, body),
  );
  return h('section', { class: 'card' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Balance'), body);
}

/** An expired token signs the user out; other failures are shown where the data would be. */
function handleFailure(failure: unknown, into: HTMLElement): void {
  if (failure instanceof ApiError && (failure.code === 'not_authenticated' || failure.code === 'token_not_valid')) {
    state.token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    navigate('');
    return;
  }
  into.replaceChildren(h('p', { class: 'error', role: 'alert' }, failure instanceof ApiError ? failure.message : 'Something went wrong.'));
}

function valueView(value: unknown): HTMLElement {
  if (Array.isArray(value)) {
    if (value.length === 0) return h('p', {}, 'Nothing yet.');
    return h('ul', { class: 'results' }, ...value.map((item) => h('li', {}, valueView(item))));
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if ('amount' in value && 'currency' in value && entries.length === 2) {
      const money = value as { amount: string; currency: string };
      return h('span', {}, `${money.amount} ${money.currency}`);
    }
    return h('dl', {}, ...entries.flatMap(([key, item]) => [h('dt', {}, key.replace(/_/g, ' ')), h('dd', {}, valueView(item))]));
  }
  return h('span', {}, value === null || value === undefined ? '—' : String(value as string | number | boolean));
}

function moduleView(page: ModulePage): HTMLElement {
  const body = h('div', { 'aria-live': 'polite' }, h('p', {}, 'Loading…'));
  api.openapi().then(
    (document_) => {
      const operations = moduleOperations(page, document_.paths);
      if (operations.length === 0) {
        body.replaceChildren(h('p', { class: 'coming-soon' }, 'Coming soon: this node does not offer this service yet.'));
        return;
      }
      body.replaceChildren(
        h(
          'ul',
          { class: 'operations' },
          ...operations.map((operation) => {
            const output = h('div', { 'aria-live': 'polite' });
            const show = operation.readable
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    onclick: () => {
                      const path = operation.path.split(' ')[1];
                      output.replaceChildren(h('p', {}, 'Loading…'));
                      api.call(path, state.token!).then(
                        (result) => output.replaceChildren(valueView('results' in result ? result.results : result)),
                        (failure: unknown) => handleFailure(failure, output),
                      );
                    },
                  },
                  `Show ${operation.summary || operation.path}`,
                )
              : null;
            return h('li', {}, h('p', {}, h('strong', {}, operation.summary || operation.path), ' ', h('code', {}, operation.path)), show, output);
          }),
        ),
      );
    },
    (failure: unknown) => handleFailure(failure, body),
  );
  return h('section', { class: 'card' }, h('h1', { id: 'page-title', tabindex: '-1' }, page.label), h('p', {}, page.description), body);
}

function notAvailableView(): HTMLElement {
  return h(
    'section',
    { class: 'card' },
    h('h1', { id: 'page-title', tabindex: '-1' }, 'Not available'),
    h('p', {}, 'This service is switched off on this node, or the page does not exist.'),
    link('', 'Back to your balance', 'none'),
  );
}

function view(route: string): HTMLElement {
  if (!state.token) return signInView();
  if (route === '') return homeView();
  const page = enabledModules().find((candidate) => candidate.slug === route);
  return page ? moduleView(page) : notAvailableView();
}

async function render(moveFocus = false): Promise<void> {
  await loadConfiguration();
  const route = routeOf();
  const main = h('main', { id: 'main', tabindex: '-1' }, ...banners(), view(route));
  root.replaceChildren(header(route), main, h('footer', {}, `${displayName()} · client ${api.version}`));
  // after a navigation, put keyboard and screen-reader focus on the new page's heading
  if (moveFocus) root.querySelector<HTMLElement>('#page-title')?.focus();
}

window.addEventListener('popstate', () => void render(true));
// the client reads the flags at start-up and on refresh: coming back to the tab counts as one
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void render();
});
void render();
