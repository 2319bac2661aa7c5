import { Page } from '../ui/kit';
export function Settings() {
  return <Page title="Settings" />;
}
