import { Page } from '../ui/kit';
export function Shop() {
  return <Page title="Shop" />;
}
