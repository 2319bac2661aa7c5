import { NAV, type NavItem } from './nav';
import { moduleOn, type NodeState } from './state';

/** The item is shown: it needs no module, or one of its modules is on. */
export const visible = (node: NodeState, item: NavItem): boolean =>
  !item.module || (Array.isArray(item.module) ? item.module : [item.module]).some((module) => moduleOn(node, module));

export const visibleNav = (node: NodeState): NavItem[] => NAV.filter((item) => visible(node, item));
