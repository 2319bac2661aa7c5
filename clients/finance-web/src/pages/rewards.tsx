import { Page } from '../ui/kit';
export function Rewards() {
  return <Page title="Rewards" />;
}
