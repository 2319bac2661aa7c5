import { Page } from '../ui/kit';
export function More() {
  return <Page title="More" />;
}
