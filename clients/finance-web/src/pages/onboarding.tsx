/** Sign-up, e-mail verification and password reset. A node without these endpoints (404) says so plainly. */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { to } from '../state';
import { DevOutboxLink, ErrorNote, Field, Page, formValue, useAction } from '../ui/kit';

/** The error to show: a 404 means this node has no such endpoint yet. */
function explain(failure: unknown, what: string): Error {
  if (failure instanceof ApiError && failure.status === 404)
    return new Error(`${what} is not available on this node yet. Ask the operator of this service.`, { cause: failure });
  if (failure instanceof ApiError && failure.code === 'signup_closed')
    return new Error('Sign-up is by invitation only: enter your invite code.', { cause: failure });
  return failure instanceof Error ? failure : new Error('That did not work. Please try again.');
}

export function SignUp() {
  const action = useAction();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const body = {
      username: formValue(form, 'new-username'),
      email: formValue(form, 'email'),
      password: new FormData(form).get('new-password') as string,
      invite_code: formValue(form, 'invite') || undefined,
    };
    setFields({});
    void action.run(async () => {
      try {
        const user = await unwrap(api.POST('/api/auth/signup/', { body }));
        setDone(user.email);
      } catch (failure) {
        if (failure instanceof ApiError) setFields(failure.fields);
        throw explain(failure, 'Sign-up');
      }
    });
  };
  if (done)
    return (
      <Page title="Check your e-mail">
        <p role="status">We sent a link to {done}. Open it to verify your address, then sign in.</p>
        <DevOutboxLink what="the verification mail" />
        <a href={to('')}>Sign in</a>
      </Page>
    );
  return (
    <Page title="Create an account">
      <form class="card narrow" onSubmit={submit} noValidate>
        <Field id="new-username" label="User name" autoComplete="username" error={fields.username} />
        <Field id="email" label="E-mail" type="email" autoComplete="email" error={fields.email} />
        <Field
          id="new-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters, not only digits."
          error={fields.password}
        />
        <Field id="invite" label="Invite code (if you have one)" autoComplete="off" error={fields.invite_code} />
        <ErrorNote id="signup-error" error={action.error} />
        <button type="submit" disabled={action.busy}>
          Create account
        </button>
      </form>
      <p class="aside">
        Already have an account? <a href={to('')}>Sign in</a>
      </p>
    </Page>
  );
}

export function Verify() {
  const token = useLocation().query.token ?? '';
  const action = useAction();
  const [ok, setOk] = useState(false);
  useEffect(() => {
    if (!token) return action.setError(new Error('This link has no code. Open the link from the e-mail again.'));
    void action.run(async () => {
      await unwrap(api.POST('/api/auth/email/verify/', { body: { token } })).catch((failure: unknown) =>
        Promise.reject(explain(failure, 'E-mail verification')),
      );
      setOk(true);
    });
  }, [token]);
  return (
    <Page title="Verify your e-mail">
      {action.busy ? <p role="status">Checking the link…</p> : null}
      {ok ? <p role="status">Your e-mail address is verified.</p> : <ErrorNote error={action.error} />}
      <a href={to('')}>Continue</a>
    </Page>
  );
}

export function Reset() {
  const action = useAction();
  const [sent, setSent] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const email = formValue(event.currentTarget as HTMLFormElement, 'reset-email');
    if (!email.includes('@')) return action.setError(new Error('Enter the e-mail address of your account.'));
    void action.run(async () => {
      await unwrap(api.POST('/api/auth/password/reset/', { body: { email } })).catch((failure: unknown) => Promise.reject(explain(failure, 'Password reset')));
      setSent(true);
    });
  };
  return (
    <Page title="Reset your password">
      {sent ? (
        <>
          <p role="status">If an account has this address, a reset link is on its way. It works for one hour.</p>
          <DevOutboxLink what="the reset mail" />
        </>
      ) : (
        <form class="card narrow" onSubmit={submit} noValidate>
          <Field id="reset-email" label="E-mail" type="email" autoComplete="email" />
          <ErrorNote id="reset-error" error={action.error} />
          <button type="submit" disabled={action.busy}>
            Send reset link
          </button>
        </form>
      )}
      <p class="aside">
        <a href={to('')}>Back to sign in</a>
      </p>
    </Page>
  );
}

export function ResetConfirm() {
  const token = useLocation().query.token ?? '';
  const action = useAction();
  const [done, setDone] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const [password, again] = ['reset-password', 'reset-password-again'].map((name) => new FormData(form).get(name) as string);
    if (password !== again) return action.setError(new Error('The two passwords are not the same.'));
    void action.run(async () => {
      await unwrap(api.POST('/api/auth/password/reset/confirm/', { body: { token, password } })).catch((failure: unknown) => {
        const fields = failure instanceof ApiError ? failure.fields : {};
        return Promise.reject(fields.password ? new Error(fields.password) : explain(failure, 'Password reset'));
      });
      setDone(true);
    });
  };
  return (
    <Page title="Choose a new password">
      {done ? (
        <p role="status">
          Your password is changed. <a href={to('')}>Sign in</a>
        </p>
      ) : (
        <form class="card narrow" onSubmit={submit} noValidate>
          <Field id="reset-password" label="New password" type="password" autoComplete="new-password" hint="At least 10 characters, not only digits." />
          <Field id="reset-password-again" label="New password again" type="password" autoComplete="new-password" />
          <ErrorNote id="reset-error" error={action.error} />
          <button type="submit" disabled={action.busy}>
            Set password
          </button>
        </form>
      )}
    </Page>
  );
}
