import { Page } from '../ui/kit';
export function Utilities() {
  return <Page title="Utilities" />;
}
export function GiftCards() {
  return <Page title="GiftCards" />;
}
