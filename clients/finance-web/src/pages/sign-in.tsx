/** Sign in (user name, password, and the 2FA code or a recovery code); enrols in 2FA when the node requires it. */
import { useEffect, useState } from 'preact/hooks';
import { api, session, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { displayName, to, useNode } from '../state';
import { ErrorNote, Field, Page, formValue, useAction } from '../ui/kit';

export function SignIn() {
  const node = useNode();
  const [otpShown, setOtpShown] = useState(false);
  const [recovery, setRecovery] = useState(false);
  const [enrolmentToken, setEnrolmentToken] = useState<string | null>(null);
  const action = useAction();
  const showOtp = otpShown || !!node.config?.auth.enforce_2fa;

  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const [username, password, otp, code] = ['username', 'password', 'otp', 'recovery_code'].map((name) => formValue(form, name));
    if (!username || !password) return action.setError(new Error('Enter your user name and password.'));
    const body = { username, password, ...(otp ? { otp } : {}), ...(code ? { recovery_code: code } : {}) };
    void action.run(async () => {
      try {
        const result = await unwrap(api.POST('/api/login/', { body: body as { username: string; password: string } }));
        session.set(result.access);
      } catch (failure) {
        if (failure instanceof ApiError && (failure.code === 'otp_required' || failure.code === 'otp_invalid')) setOtpShown(true);
        if (failure instanceof ApiError && failure.code === 'otp_enrolment_required' && typeof failure.body.enrolment_token === 'string') {
          setEnrolmentToken(failure.body.enrolment_token);
        }
        throw failure;
      }
    });
  };

  return (
    <Page title={`Sign in to ${displayName(node.config)}`}>
      <form class="card narrow" onSubmit={submit} noValidate>
        <Field id="username" label="User name" autoComplete="username" required />
        <Field id="password" label="Password" type="password" autoComplete="current-password" required />
        <div hidden={!showOtp || recovery}>
          <Field id="otp" label="One-time code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} />
        </div>
        {recovery ? <Field id="recovery_code" label="Recovery code" autoComplete="off" /> : null}
        {showOtp ? (
          <button type="button" class="link" onClick={() => setRecovery(!recovery)}>
            {recovery ? 'Use a code from the app instead' : 'Lost your phone? Use a recovery code'}
          </button>
        ) : null}
        <ErrorNote id="sign-in-error" error={action.error} />
        <button type="submit" disabled={action.busy}>
          Sign in
        </button>
      </form>
      {enrolmentToken ? <Enrol token={enrolmentToken} onDone={() => setOtpShown(true)} /> : null}
      <p class="aside">
        <a href={to('signup')}>Create an account</a> · <a href={to('reset')}>Forgot your password?</a>
      </p>
    </Page>
  );
}

/** A wrong or missing current password in plain words. */
function passwordError(failure: unknown): unknown {
  if (failure instanceof ApiError && failure.status === 400 && failure.fields.current_password)
    return new Error('That is not your current password.', { cause: failure });
  if (failure instanceof ApiError && failure.status === 429)
    return new Error('Too many wrong passwords. Wait a few minutes and try again.', { cause: failure });
  return failure;
}

/**
 * Enrolment in 2FA with the secret and its otpauth link, then a code. From a sign-in that the node's
 * 2FA rule stopped (`token`: the enrolment token, given for the password just typed) it starts at once;
 * from the settings it asks for the current password first (a borrowed session cannot add its own app).
 */
export function Enrol(props: { token?: string; onDone: () => void }) {
  const [secret, setSecret] = useState<{ secret: string; otpauth_uri: string; qr_code?: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const start = useAction();
  const confirm = useAction();
  const headers = props.token ? { Authorization: `Bearer ${props.token}` } : undefined;
  useEffect(() => {
    if (props.token) void start.run(async () => setSecret(await unwrap(api.POST('/api/auth/2fa/enrol/', { headers, body: {} }))));
  }, [props.token]);
  const begin = (event: Event) => {
    event.preventDefault();
    const current = formValue(event.currentTarget as HTMLFormElement, 'enrol-password');
    void start.run(async () => {
      try {
        setSecret(await unwrap(api.POST('/api/auth/2fa/enrol/', { body: { current_password: current } })));
      } catch (failure) {
        throw passwordError(failure);
      }
    });
  };
  if (codes) return <RecoveryCodes codes={codes} />;
  if (!props.token && !secret)
    return (
      <section class="card narrow" aria-labelledby="enrol-title">
        <h2 id="enrol-title">Set up two-factor authentication</h2>
        <form onSubmit={begin}>
          <Field id="enrol-password" label="Your current password" type="password" autoComplete="current-password" required />
          <ErrorNote id="enrol-password-error" error={start.error} />
          <button type="submit" disabled={start.busy}>
            Continue
          </button>
        </form>
      </section>
    );
  const submit = (event: Event) => {
    event.preventDefault();
    const otp = formValue(event.currentTarget as HTMLFormElement, 'enrol-otp');
    void confirm.run(async () => {
      const result = await unwrap(api.POST('/api/auth/2fa/confirm/', { headers, body: { otp } }));
      setCodes(result.recovery_codes);
      props.onDone();
    });
  };
  return (
    <section class="card narrow" aria-labelledby="enrol-title">
      <h2 id="enrol-title">Set up two-factor authentication</h2>
      <ErrorNote error={start.error} />
      {secret ? (
        <>
          <p>Scan this code with your authenticator app (or type the key below, or open the link on this phone), then enter the code it shows.</p>
          {secret.qr_code ? <img id="otp-qr" src={secret.qr_code} width={200} height={200} alt="QR code of the key for your authenticator app" /> : null}
          <p>
            <code id="otp-secret">{secret.secret}</code>
          </p>
          <p>
            <a href={secret.otpauth_uri}>Open in your authenticator app</a>
          </p>
          <form onSubmit={submit}>
            <Field id="enrol-otp" label="Confirmation code from your authenticator app" inputMode="numeric" autoComplete="one-time-code" required />
            <ErrorNote id="enrolment-error" error={confirm.error} />
            <button type="submit" disabled={confirm.busy}>
              Confirm
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}

/** Recovery codes, shown this once: each signs in once instead of a code from the app. */
export function RecoveryCodes(props: { codes: string[] }) {
  return (
    <section class="card narrow" aria-labelledby="recovery-title">
      <p role="status">Two-factor authentication is on.</p>
      <h2 id="recovery-title">Your recovery codes</h2>
      <p>Write them down or print them now: they are shown this once. Each signs you in once if you lose your phone.</p>
      <ul class="list" id="recovery-codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
