import { Page } from '../ui/kit';
export function Accounts() {
  return <Page title="Accounts" />;
}
