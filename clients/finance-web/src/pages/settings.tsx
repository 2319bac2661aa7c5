/** Settings: profile and phone, password, two-factor authentication, sessions. Endpoints a node does not have yet say so. */
import { api, session, unwrap } from '../api/client';
import { ApiError } from '../api/errors';
import { dateTime, words } from '../format';
import { Details, Empty, ErrorNote, Field, Page, formValue, useAction, useLoad } from '../ui/kit';
import { Enrol } from './sign-in';
import { useState } from 'preact/hooks';

type Profile = Partial<NonNullable<Awaited<ReturnType<typeof loadProfile>>>> & { username: string };
const loadProfile = () => unwrap(api.GET('/api/v1/profile/'));

/** A 404 of an account endpoint: this node does not offer it yet (an older version). */
const missing = (error: unknown) => error instanceof ApiError && error.status === 404;

function ProfileSection() {
  const profile = useLoad(loadProfile);
  const action = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  const shown: Profile = profile.data ?? { username: session.username() ?? '' };
  const savePhone = (event: Event) => {
    event.preventDefault();
    const phone = formValue(event.currentTarget as HTMLFormElement, 'phone') || null;
    void action.run(async () => {
      const result = await unwrap(api.PUT('/api/v1/profile/phone/', { body: { phone } }));
      setSaved(result.phone ? `Others can now send you money at ${result.phone}.` : 'Your phone number is removed.');
    });
  };
  return (
    <section class="card narrow" aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <Details
        rows={[
          ['User name', shown.username],
          ['E-mail', shown.email ? `${shown.email}${shown.email_verified ? '' : ' (not verified yet)'}` : '—'],
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
      <form onSubmit={savePhone}>
        <Field
          id="phone"
          label="Phone number (with country code)"
          type="tel"
          autoComplete="tel"
          defaultValue={shown.phone ?? ''}
          hint="Others can send you money by this number. Leave empty to remove it."
        />
        <ErrorNote error={action.error} />
        {saved ? <p role="status">{saved}</p> : null}
        <button type="submit" class="secondary" disabled={action.busy}>
          Save phone number
        </button>
      </form>
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

function TwoFactorSection() {
  const profile = useLoad(loadProfile);
  const [enrolling, setEnrolling] = useState(false);
  return (
    <section class="card narrow" aria-labelledby="twofa-title">
      <h2 id="twofa-title">Two-factor authentication</h2>
      {profile.data?.twofa_enabled ? (
        <p>On: signing in needs a code from your authenticator app.</p>
      ) : (
        <p>Add a code from an authenticator app to every sign-in.</p>
      )}
      {enrolling ? (
        <Enrol onDone={() => profile.reload()} />
      ) : !profile.data?.twofa_enabled ? (
        <button type="button" class="secondary" onClick={() => setEnrolling(true)}>
          Set up two-factor authentication
        </button>
      ) : null}
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
