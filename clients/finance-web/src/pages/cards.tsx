import { Page } from '../ui/kit';
export function Cards() {
  return <Page title="Cards" />;
}
