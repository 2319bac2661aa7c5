/** Rewards: points, what they are worth, the referral code to share, who referred you, redeeming. */
import { api, unwrap } from '../api/client';
import { dateTime, money, words } from '../format';
import { Details, Empty, ErrorNote, Field, Loading, Page, formValue, useAction, useLoad } from '../ui/kit';

export function Rewards() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/rewards/')));
  const referral = useAction();
  const redeem = useAction();
  const refer = (event: Event) => {
    event.preventDefault();
    const code = formValue(event.currentTarget as HTMLFormElement, 'referral-code');
    if (!code) return referral.setError(new Error('Enter the code your friend gave you.'));
    void referral.run(async () => (await unwrap(api.POST('/api/v1/rewards/referral/', { body: { code } })), reload()));
  };
  const spend = (event: Event) => {
    event.preventDefault();
    const points = Number(formValue(event.currentTarget as HTMLFormElement, 'points'));
    if (!Number.isInteger(points) || points <= 0) return redeem.setError(new Error('Enter a whole number of points.'));
    const currency = data?.rules.point_value.currency ?? 'EUR';
    void redeem.run(async () => (await unwrap(api.POST('/api/v1/rewards/redeem/', { body: { points, currency } })), reload()));
  };
  if (error) return <Page title="Rewards">{<ErrorNote error={error} />}</Page>;
  if (!data) return <Page title="Rewards">{<Loading what="your points" />}</Page>;
  return (
    <Page title="Rewards">
      <section class="card narrow">
        <p class="big" id="points">
          {data.points} points
        </p>
        <Details
          rows={[
            ['One point is worth', money(data.rules.point_value)],
            [
              'Your referral code',
              <code key="c" id="referral-code-value">
                {data.referral_code}
              </code>,
            ],
            ['Referred by', data.referred_by ?? '—'],
          ]}
        />
        <p>
          Share your code: a friend who signs up with it gets {data.rules.referred_bonus} points, and you get {data.rules.referrer_bonus}.
        </p>
      </section>
      {!data.referred_by ? (
        <form class="card narrow" onSubmit={refer}>
          <Field id="referral-code" label="A friend's referral code" autoComplete="off" />
          <ErrorNote error={referral.error} />
          <button type="submit" disabled={referral.busy}>
            Use the code
          </button>
        </form>
      ) : null}
      <form class="card narrow" onSubmit={spend}>
        <Field
          id="points-to-redeem"
          name="points"
          label="Points to turn into wallet credit"
          inputMode="numeric"
          hint={`At least ${data.rules.minimum_redemption} points.`}
        />
        <ErrorNote error={redeem.error} />
        <button type="submit" disabled={redeem.busy}>
          Redeem
        </button>
      </form>
      <h2>History</h2>
      {!data.history.length ? <Empty>No points yet.</Empty> : null}
      <ul class="list">
        {data.history.map((h) => (
          <li key={h.id}>
            {dateTime(h.created_at)} · {words(h.rule)} · {h.points} points
          </li>
        ))}
      </ul>
    </Page>
  );
}
