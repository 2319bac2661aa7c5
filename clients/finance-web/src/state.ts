/** What the node says about itself (branding, modules, maintenance) and the session, for every page. */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { api, session, unwrap } from './api/client';
import type { paths } from './api/schema';
import { textColorOn } from '../colors';

export type PublicConfig = paths['/api/v1/config/']['get']['responses'][200]['content']['application/json'] & {
  branding: Record<string, string>;
  modules: Record<string, boolean>;
};
export type Features = Record<string, boolean | string>;

/** The branding baked in by the build (vite-build.mjs): the generic one unless a whitelabel build. */
interface BakedBranding {
  displayName: string;
  custom: boolean;
  logo: string | null;
}
export const baked: BakedBranding = JSON.parse(
  document.querySelector<HTMLMetaElement>('meta[name="finance-branding"]')?.content ?? '{"displayName":"Finance","custom":false,"logo":null}',
) as BakedBranding;

/** The path the client is served at (its <base href>), e.g. /app/. */
export const BASE = new URL(document.baseURI).pathname;
export const to = (route: string): string => BASE + (route ? `${route.replace(/^\/|\/$/g, '')}/` : '');

export interface NodeState {
  config: PublicConfig | null;
  features: Features;
  loadError: string | null;
  reload: () => void;
}

export const NodeContext = createContext<NodeState>({ config: null, features: {}, loadError: null, reload: () => undefined });
export const useNode = (): NodeState => useContext(NodeContext);

/** Reads the configuration and flags at start-up, on refresh and when the tab becomes visible again. */
export function useNodeState(): NodeState {
  const [state, setState] = useState<Omit<NodeState, 'reload'>>({ config: null, features: {}, loadError: null });
  const reload = () => {
    Promise.all([unwrap(api.GET('/api/v1/config/')), unwrap(api.GET('/api/v1/config/features/'))]).then(
      ([config, features]) => setState({ config: config as PublicConfig, features: features as Features, loadError: null }),
      (error: Error) => setState((s) => ({ ...s, loadError: error.message })),
    );
  };
  useEffect(() => {
    reload();
    const onVisible = () => document.visibilityState === 'visible' && reload();
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  useEffect(() => applyBranding(state.config), [state.config]);
  return { ...state, reload };
}

export function displayName(config: PublicConfig | null): string {
  if (baked.custom) return baked.displayName;
  return config?.branding.organisation_name || config?.app.name || baked.displayName;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** The node's three branding colours, name, logo and favicon apply to the generic client; a whitelabel build keeps its own. */
function applyBranding(config: PublicConfig | null): void {
  document.title = displayName(config);
  const branding = config?.branding;
  if (baked.custom || !branding) return;
  const style = document.documentElement.style;
  if (HEX.test(branding.color_primary ?? '')) {
    style.setProperty('--primary', branding.color_primary);
    style.setProperty('--on-primary', textColorOn(branding.color_primary));
  }
  if (HEX.test(branding.color_accent ?? '')) style.setProperty('--accent', branding.color_accent);
  if (HEX.test(branding.color_secondary ?? '')) style.setProperty('--secondary', branding.color_secondary);
  const favicon = branding.favicon_url || branding.logo_url;
  if (favicon && /^(\/|https?:|data:image\/)/.test(favicon)) document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.setAttribute('href', favicon);
}

/** The module is on: in the configuration and in the flags as last saved. */
export function moduleOn(node: NodeState, module: string): boolean {
  if (!node.config) return false;
  return node.config.modules[module] !== false && node.features[`${module}_enabled`] !== false;
}

/** The signed-in state, re-rendering on sign-in and sign-out. */
export function useToken(): string | null {
  const [token, setToken] = useState(session.token());
  useEffect(() => session.subscribe(() => setToken(session.token())), []);
  return token;
}
