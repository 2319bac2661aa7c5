/** The application: node state, header, menu (sidebar on desktop, bottom bar on a phone), banners, pages. */
import type { ComponentType } from 'preact';
import { ErrorBoundary, LocationProvider, Router, Route, lazy, useLocation } from 'preact-iso';
import { useEffect, useRef } from 'preact/hooks';
import { CLIENT_VERSION, api, session, unwrap } from './api/client';
import { NAV } from './nav';
import { visible } from './nav-visible';
import { BASE, NodeContext, baked, displayName, to, useNode, useNodeState, useToken } from './state';
import { Home } from './pages/home';
import { SignIn } from './pages/sign-in';
import { Page } from './ui/kit';

const Send = lazy(() => import('./pages/send').then((m) => m.Send));
const Convert = lazy(() => import('./pages/convert').then((m) => m.Convert));
const Activity = lazy(() => import('./pages/activity').then((m) => m.Activity));
const Receipt = lazy(() => import('./pages/activity').then((m) => m.Receipt));
const Statement = lazy(() => import('./pages/statement').then((m) => m.StatementPage));
const Accounts = lazy(() => import('./pages/accounts').then((m) => m.Accounts));
const Cards = lazy(() => import('./pages/cards').then((m) => m.Cards));
const Invest = lazy(() => import('./pages/invest').then((m) => m.Invest));
const Shop = lazy(() => import('./pages/shop').then((m) => m.Shop));
const Utilities = lazy(() => import('./pages/utilities').then((m) => m.Utilities));
const GiftCards = lazy(() => import('./pages/utilities').then((m) => m.GiftCards));
const MobileMoney = lazy(() => import('./pages/money-rails').then((m) => m.MobileMoney));
const Crypto = lazy(() => import('./pages/money-rails').then((m) => m.Crypto));
const Ramps = lazy(() => import('./pages/money-rails').then((m) => m.Ramps));
const Rewards = lazy(() => import('./pages/rewards').then((m) => m.Rewards));
const Disputes = lazy(() => import('./pages/disputes').then((m) => m.Disputes));
const Dispute = lazy(() => import('./pages/disputes').then((m) => m.Dispute));
const Kyc = lazy(() => import('./pages/kyc').then((m) => m.Kyc));
const Settings = lazy(() => import('./pages/settings').then((m) => m.Settings));
const More = lazy(() => import('./pages/more').then((m) => m.More));
const SignUp = lazy(() => import('./pages/onboarding').then((m) => m.SignUp));
const Verify = lazy(() => import('./pages/onboarding').then((m) => m.Verify));
const Reset = lazy(() => import('./pages/onboarding').then((m) => m.Reset));
const ResetConfirm = lazy(() => import('./pages/onboarding').then((m) => m.ResetConfirm));

/** A page: no props, or the id of the thing it shows (/activity/:id, /disputes/:id). */
type PageComponent = ComponentType<{ id?: string }>;

const PAGES: Record<string, PageComponent> = {
  send: Send,
  convert: Convert,
  activity: Activity,
  accounts: Accounts,
  cards: Cards,
  invest: Invest,
  shop: Shop,
  utilities: Utilities,
  'gift-cards': GiftCards,
  'mobile-money': MobileMoney,
  crypto: Crypto,
  ramps: Ramps,
  rewards: Rewards,
  disputes: Disputes,
  kyc: Kyc,
  settings: Settings,
};

function NotAvailable() {
  return (
    <Page title="Not available">
      <p>This service is switched off on this node, or the page does not exist.</p>
      <a href={to('')}>Back to your home page</a>
    </Page>
  );
}

/** A module's page, or "Not available" while its toggle is off. */
function Guarded(props: { route: string; component: PageComponent; [key: string]: unknown }) {
  const node = useNode();
  const item = NAV.find((candidate) => candidate.route === props.route);
  if (!node.config) return <p role="status">Loading…</p>;
  if (item && !visible(node, item)) return <NotAvailable />;
  const Component = props.component;
  return <Component id={typeof props.id === 'string' ? props.id : undefined} />;
}

/** Stable route components (a new function per render would remount the page and lose its state). */
const guard = (route: string, component: PageComponent) => (props: Record<string, unknown>) => <Guarded {...props} route={route} component={component} />;
const GUARDED = Object.entries(PAGES).map(([route, component]) => [route, guard(route, component)] as const);
const ReceiptPage = guard('activity', Receipt);
const StatementRoute = guard('activity', Statement);
const DisputePage = guard('disputes', Dispute);

function Menu(props: { current: string }) {
  const node = useNode();
  const items = NAV.filter((item) => visible(node, item));
  const current = (route: string) => (props.current === route ? 'page' : undefined);
  return (
    <>
      <nav class="sidebar" aria-label="Main">
        <ul>
          {items.map((item) => (
            <li key={item.route}>
              <a href={to(item.route)} aria-current={current(item.route)}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <nav class="bottom-bar" aria-label="Quick">
        <ul>
          {items
            .filter((item) => item.primary)
            .map((item) => (
              <li key={item.route}>
                <a href={to(item.route)} aria-current={current(item.route)}>
                  {item.label}
                </a>
              </li>
            ))}
          <li>
            <a href={to('more')} aria-current={current('more')}>
              More
            </a>
          </li>
        </ul>
      </nav>
    </>
  );
}

function Banners() {
  const node = useNode();
  return (
    <>
      {node.loadError ? (
        <div class="banner banner-error" role="alert">
          {node.loadError}
        </div>
      ) : null}
      {node.config?.maintenance.active ? (
        <div class="banner banner-maintenance" role="status" id="maintenance-notice">
          <strong>Maintenance: </strong>
          {node.config.maintenance.message}
        </div>
      ) : null}
      {node.config?.read_only ? (
        <div class="banner banner-read-only" role="status" id="read-only-banner">
          <strong>Read-only: </strong>this node has no valid licence, so you can look but not change anything.
        </div>
      ) : null}
    </>
  );
}

/** Ends the session at the node (older nodes without the endpoint: the token is simply forgotten), then the sign-in page. */
function useSignOut(): () => void {
  const location = useLocation();
  return () => {
    void unwrap(api.POST('/api/auth/logout/')).catch(() => undefined);
    session.set(null);
    location.route(BASE);
  };
}

function Header(props: { signedIn: boolean }) {
  const node = useNode();
  const signOut = useSignOut();
  // the node's logo as its configuration names it (a path, an https URL or a data: URI; empty: none), else the build's
  const logo = (!baked.custom && node.config?.branding.logo_url) || baked.logo;
  return (
    <header class="site-header">
      <a class="brand" href={to('')}>
        {logo ? <img src={logo} alt="" height={32} data-testid="brand-logo" /> : null}
        <span>{displayName(node.config)}</span>
      </a>
      {props.signedIn ? (
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      ) : null}
    </header>
  );
}

/** Pages without a session; verify-email/ and reset-password/ are the links the node's mails carry. */
const PUBLIC = ['signup', 'verify', 'verify-email', 'reset', 'reset/confirm', 'reset-password'];

function Routes() {
  const location = useLocation();
  const token = useToken();
  const route = location.path.startsWith(BASE) ? location.path.slice(BASE.length).replace(/\/$/, '') : '';
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // after a navigation, keyboard and screen-reader focus go to the new page's heading
    if (first.current) first.current = false;
    else setTimeout(() => document.getElementById('page-title')?.focus(), 0);
  }, [location.url]);
  const isPublic = PUBLIC.includes(route);
  return (
    <>
      <Header signedIn={!!token} />
      <div class={token && !isPublic ? 'layout' : 'layout public'}>
        {token && !isPublic ? <Menu current={route} /> : null}
        <main id="main" tabIndex={-1} ref={main}>
          <Banners />
          <ErrorBoundary>{!token && !isPublic ? <SignIn /> : <PageRouter />}</ErrorBoundary>
        </main>
      </div>
      <footer>
        {displayName(useNode().config)} · client {CLIENT_VERSION}
      </footer>
    </>
  );
}

function PageRouter() {
  return (
    <Router>
      <Route path={BASE} component={Home} />
      <Route path={`${BASE}more`} component={More} />
      <Route path={`${BASE}statement`} component={StatementRoute} />
      <Route path={`${BASE}activity/:id`} component={ReceiptPage} />
      <Route path={`${BASE}disputes/:id`} component={DisputePage} />
      <Route path={`${BASE}signup`} component={SignUp} />
      <Route path={`${BASE}verify`} component={Verify} />
      <Route path={`${BASE}reset`} component={Reset} />
      <Route path={`${BASE}reset/confirm`} component={ResetConfirm} />
      <Route path={`${BASE}verify-email`} component={Verify} />
      <Route path={`${BASE}reset-password`} component={ResetConfirm} />
      {GUARDED.map(([route, component]) => (
        <Route key={route} path={`${BASE}${route}`} component={component} />
      ))}
      <Route default component={NotAvailable} />
    </Router>
  );
}

export function App() {
  const node = useNodeState();
  return (
    <NodeContext.Provider value={node}>
      <LocationProvider scope={BASE}>
        <Routes />
      </LocationProvider>
    </NodeContext.Provider>
  );
}
