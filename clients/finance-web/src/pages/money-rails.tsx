import { Page } from '../ui/kit';
export function MobileMoney() {
  return <Page title="MobileMoney" />;
}
export function Crypto() {
  return <Page title="Crypto" />;
}
export function Ramps() {
  return <Page title="Ramps" />;
}
