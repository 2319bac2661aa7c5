import { Page } from '../ui/kit';
export function Invest() {
  return <Page title="Invest" />;
}
