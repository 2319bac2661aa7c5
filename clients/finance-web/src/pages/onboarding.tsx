import { Page } from '../ui/kit';
export function SignUp() {
  return <Page title="SignUp" />;
}
export function Verify() {
  return <Page title="Verify" />;
}
export function Reset() {
  return <Page title="Reset" />;
}
export function ResetConfirm() {
  return <Page title="ResetConfirm" />;
}
