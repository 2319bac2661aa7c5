import { Page } from '../ui/kit';
export function Kyc() {
  return <Page title="Kyc" />;
}
