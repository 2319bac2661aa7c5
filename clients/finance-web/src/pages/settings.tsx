/** Settings: profile and phone, password, two-factor authentication, sessions. Endpoints a node does not have yet say so. */
import { api, session, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { dateTime, words } from '../format';
import { Details, DevOutboxLink, Empty, ErrorNote, Field, Page, formValue, useAction, useLoad } from '../ui/kit';
import { Enrol } from './sign-in';
import { useState } from 'preact/hooks';

type Profile = Partial<NonNullable<Awaited<ReturnType<typeof loadProfile>>>> & { username: string };
const loadProfile = () => unwrap(api.GET('/api/v1/profile/'));

/** A 404 of an account endpoint: this node does not offer it yet (an older version). */
const missing = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The phone errors in plain words (the codes of PUT /api/v1/profile/phone/ and …/verify/). */
function phoneError(failure: unknown, step: 'number' | 'code'): unknown {
  if (!(failure instanceof ApiError)) return failure;
  if (failure.code === 'code_expired') return new Error('That code has expired. Ask for a new code.', { cause: failure });
  if (failure.status === 429)
    return new Error(
      step === 'code'
        ? 'Too many wrong codes. Wait a few minutes, then ask for a new code.'
        : 'You can ask for a new code once a minute. Please wait a moment.',
      { cause: failure },
    );
  if (failure.status === 409) return new Error('Another account already uses this phone number.', { cause: failure });
  if (failure.status === 400 && step === 'code')
    return new Error(failure.fields.code ? 'That code is not right. Check the text message and try again.' : 'Ask for a new code first.', { cause: failure });
  if (failure.status === 400) return new Error('That is not a phone number we can use. Include the country code, e.g. +44 7911 123456.', { cause: failure });
  return failure;
}

type Action = ReturnType<typeof useAction>;

/** Saving a number (a code goes to it) and verifying it with the code; `pending`: the number waiting for its code. */
function usePhone(shown: Profile, reload: () => void, action: Action, say: (message: string) => void) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const pending = sentTo ?? (shown.phone && shown.phone_verified === false ? shown.phone : null);
  const requestCode = (phone: string | null) =>
    action.run(async () => {
      try {
        const result = await unwrap(api.PUT('/api/v1/profile/phone/', { body: { phone } }));
        setSentTo(result.phone && !result.verified ? result.phone : null);
        say(
          !result.phone
            ? 'Your phone number is removed.'
            : result.verified
              ? `Your number ${result.phone} is verified.`
              : `We sent a code to ${result.phone}. Enter it below to verify your number.`,
        );
        reload();
      } catch (failure) {
        throw phoneError(failure, 'number');
      }
    });
  const savePhone = (event: Event) => {
    event.preventDefault();
    void requestCode(formValue(event.currentTarget as HTMLFormElement, 'phone') || null);
  };
  const verifyCode = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const code = formValue(form, 'phone-code').replace(/\s/g, '');
    void action.run(async () => {
      try {
        const result = await unwrap(api.POST('/api/v1/profile/phone/verify/', { body: { code } }));
        setSentTo(null);
        say(`Your number ${result.phone} is verified. Others can now send you money at it.`);
        form.reset();
        reload();
      } catch (failure) {
        throw phoneError(failure, 'code');
      }
    });
  };
  return { pending, savePhone, verifyCode, resend: () => void requestCode(pending) };
}

function PhoneCodeForm(props: { pending: string; busy: boolean; onSubmit: (event: Event) => void; onResend: () => void }) {
  return (
    <form onSubmit={props.onSubmit} aria-labelledby="phone-code-title">
      <h3 id="phone-code-title">Verify {props.pending}</h3>
      <Field
        id="phone-code"
        label="Code from the text message"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]{6,7}"
        maxLength={7}
        required
        hint={`We sent a 6-digit code to ${props.pending}. It is valid for 10 minutes.`}
      />
      <button type="submit" disabled={props.busy}>
        Verify phone number
      </button>{' '}
      <button type="button" class="link" disabled={props.busy} onClick={props.onResend}>
        Send a new code
      </button>
      <DevOutboxLink what="the text message" />
    </form>
  );
}

function ProfileSection() {
  const profile = useLoad(loadProfile);
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const shown: Profile = profile.data ?? { username: session.username() ?? '' };
  const phone = usePhone(shown, profile.reload, action, setSaved);
  const phoneRow = shown.phone ? `${shown.phone}${shown.phone_verified ? ' (verified)' : ' (not verified yet)'}` : '—';
  return (
    <section class="card narrow" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <Details
        rows={[
          ['User name', shown.username],
          ['E-mail', shown.email ? `${shown.email}${shown.email_verified ? '' : ' (not verified yet)'}` : '—'],
          ['Phone', phoneRow],
          ['Identity level', shown.kyc_level ? words(shown.kyc_level) : '—'],
        ]}
      />
      {profile.error && !missing(profile.error) ? <ErrorNote error={profile.error} /> : null}
      {shown.email && !shown.email_verified ? (
        <button
          type="button"
          class="link"
          onClick={() => void action.run(async () => (await unwrap(api.POST('/api/auth/email/resend/')), setSaved('A new verification mail is on its way.')))}
        >
          Send the verification mail again
        </button>
      ) : null}
      {shown.email && !shown.email_verified ? <DevOutboxLink what="the verification mail" /> : null}
      <form onSubmit={phone.savePhone}>
        <Field
          id="phone"
          label="Phone number (with country code)"
          type="tel"
          autoComplete="tel"
          defaultValue={shown.phone ?? ''}
          hint="We send a code to it by text message. Once verified, others can send you money by this number. Leave empty to remove it."
        />
        <button type="submit" class="secondary" disabled={action.busy}>
          Save phone number
        </button>
      </form>
      {phone.pending ? <PhoneCodeForm pending={phone.pending} busy={action.busy} onSubmit={phone.verifyCode} onResend={phone.resend} /> : null}
      <ErrorNote error={action.error} />
      {saved ? <p role="status">{saved}</p> : null}
    </section>
  );
}

function PasswordSection() {
  const action = useAction();
  const [done, setDone] = useState(false);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const [current_password, password, again] = ['current-password', 'new-password', 'new-password-again'].map(
      (name) => new FormData(form).get(name) as string,
    );
    if (password !== again) return action.setError(new Error('The two new passwords are not the same.'));
    void action.run(async () => {
      try {
        const result = await unwrap(api.POST('/api/auth/password/', { body: { current_password, password } }));
        session.set(result.access);
        setDone(true);
        form.reset();
      } catch (failure) {
        if (missing(failure)) throw new Error('Changing the password is not available on this node yet.', { cause: failure });
        if (failure instanceof ApiError && Object.keys(failure.fields).length) throw new Error(Object.values(failure.fields).join(' '), { cause: failure });
        throw failure;
      }
    });
  };
  return (
    <form class="card narrow" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <Field id="current-password" label="Current password" type="password" autoComplete="current-password" />
      <Field id="new-password" label="New password" type="password" autoComplete="new-password" hint="At least 10 characters, not only digits." />
      <Field id="new-password-again" label="New password again" type="password" autoComplete="new-password" />
      <ErrorNote error={action.error} />
      {done ? <p role="status">Your password is changed. Your other sessions have ended.</p> : null}
      <button type="submit" disabled={action.busy}>
        Change password
      </button>
    </form>
  );
}

/** The 2FA errors in plain words (POST /api/auth/2fa/recovery-codes/, DELETE /api/auth/2fa/). */
function twoFactorError(failure: unknown): unknown {
  if (!(failure instanceof ApiError)) return failure;
  if (failure.status === 400 && failure.fields.current_password) return new Error('That is not your current password.', { cause: failure });
  if (failure.code === 'otp_invalid' || (failure.status === 400 && failure.fields.otp))
    return new Error('That code is not right. Enter the current 6-digit code from your authenticator app.', { cause: failure });
  if (failure.code === 'twofa_enforced') return new Error('This service requires two-factor authentication: it cannot be switched off.', { cause: failure });
  if (failure.status === 409) return new Error('Two-factor authentication is already off for your account.', { cause: failure });
  if (failure.status === 429) return new Error('Too many wrong codes. Wait a few minutes and try again.', { cause: failure });
  if (missing(failure)) return new Error('This node does not offer this yet.', { cause: failure });
  return failure;
}

/** With 2FA on: a new set of recovery codes, or 2FA switched off; each needs a current code from the app. */
function ManageTwoFactor(props: { onOff: () => void }) {
  const action = useAction();
  const [codes, setCodes] = useState<string[] | null>(null);
  const run = (event: Event, step: (otp: string, form: HTMLFormElement) => Promise<void>) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    // the form's code field (the switch-off form also has the password)
    const otp = (form.querySelector<HTMLInputElement>('input[inputmode="numeric"]')?.value ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(otp)) return action.setError(new Error('Enter the 6-digit code from your authenticator app.'));
    void action.run(async () => {
      try {
        await step(otp, form);
        form.reset();
      } catch (failure) {
        throw twoFactorError(failure);
      }
    });
  };
  const renew = (event: Event) =>
    run(event, async (otp) => {
      setCodes((await unwrap(api.POST('/api/auth/2fa/recovery-codes/', { body: { otp } }))).recovery_codes);
    });
  const disable = (event: Event) =>
    run(event, async (otp, form) => {
      await unwrap(api.DELETE('/api/auth/2fa/', { body: { otp, current_password: formValue(form, 'disable-password') } }));
      props.onOff();
    });
  return (
    <>
      <form onSubmit={renew} aria-labelledby="renew-title" class="twofa-action">
        <h3 id="renew-title">New recovery codes</h3>
        <Field
          id="renew-otp"
          label="Code from your app, for new recovery codes"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          hint="Your old recovery codes stop working."
        />
        <button type="submit" class="secondary" disabled={action.busy}>
          Get new recovery codes
        </button>
      </form>
      <form onSubmit={disable} aria-labelledby="disable-title" class="twofa-action">
        <h3 id="disable-title">Switch two-factor authentication off</h3>
        <Field id="disable-password" label="Your current password" type="password" autoComplete="current-password" required />
        <Field id="disable-otp" label="Code from your app, to switch off" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        <button type="submit" class="secondary" disabled={action.busy}>
          Switch off
        </button>
      </form>
      <ErrorNote id="twofa-error" error={action.error} />
      {codes ? (
        <section aria-labelledby="new-codes-title">
          <h3 id="new-codes-title">Your new recovery codes</h3>
          <p role="status">Write them down or print them now: they are shown this once. Each signs you in once if you lose your phone.</p>
          <ul class="list" id="new-recovery-codes">
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

function TwoFactorSection() {
  const profile = useLoad(loadProfile);
  const [enrolling, setEnrolling] = useState(false);
  const [off, setOff] = useState(false);
  const on = Boolean(profile.data?.twofa_enabled);
  return (
    <section class="card narrow" aria-labelledby="twofa-title">
      <h2 id="twofa-title">Two-factor authentication</h2>
      {on ? <p>On: signing in needs a code from your authenticator app.</p> : <p>Add a code from an authenticator app to every sign-in.</p>}
      {off && !on ? <p role="status">Two-factor authentication is off. Signing in needs only your password now.</p> : null}
      {enrolling ? (
        <Enrol onDone={() => (setOff(false), profile.reload())} />
      ) : on ? (
        <ManageTwoFactor onOff={() => (setOff(true), profile.reload())} />
      ) : (
        <button type="button" class="secondary" onClick={() => setEnrolling(true)}>
          Set up two-factor authentication
        </button>
      )}
    </section>
  );
}

function SessionsSection() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/auth/sessions/')));
  const action = useAction();
  const end = (id: string) => action.run(async () => (await unwrap(api.DELETE('/api/auth/sessions/{id}/', { params: { path: { id } } })), reload()));
  const everywhere = () => action.run(async () => (await unwrap(api.POST('/api/auth/logout-all/')), session.set(null)));
  return (
    <section class="card narrow" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Where you are signed in</h2>
      {missing(error) ? <p>This node does not list sessions yet.</p> : <ErrorNote error={error ?? action.error} />}
      {data && !data.length ? <Empty>No other sessions.</Empty> : null}
      <ul class="list" id="sessions">
        {(data ?? []).map((s) => (
          <li key={s.id}>
            {s.user_agent || 'Unknown device'} · {s.ip} · last seen {dateTime(s.last_seen_at)} {s.current ? <span class="tag">this device</span> : null}{' '}
            {!s.current ? (
              <button type="button" class="secondary" onClick={() => void end(s.id)}>
                Sign out this session
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {data ? (
        <button type="button" class="secondary" onClick={() => void everywhere()}>
          Sign out everywhere
        </button>
      ) : null}
    </section>
  );
}

export function Settings() {
  return (
    <Page title="Settings">
      <ProfileSection />
      <PasswordSection />
      <TwoFactorSection />
      <SessionsSection />
    </Page>
  );
}
