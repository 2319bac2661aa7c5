import { Page } from '../ui/kit';
export function Disputes() {
  return <Page title="Disputes" />;
}
export function Dispute() {
  return <Page title="Dispute" />;
}
