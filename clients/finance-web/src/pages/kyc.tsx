/** Identity (KYC): where you stand, start a verification, upload documents (camera on a phone), submit, follow its state. */
import { useEffect, useState } from 'preact/hooks';
import { apiBase, clientHeaders, unwrap, api } from '../api/client';
import { ApiError, plainMessage } from '../api/errors';
import type { paths } from '../api/schema';
import { dateTime, words } from '../format';
import { Details, ErrorNote, Field, Loading, Page, Select, formValue, useAction, useLoad } from '../ui/kit';

type Verification = paths['/api/v1/kyc/']['get']['responses'][200]['content']['application/json']['verifications'][number];
const KINDS: [string, string][] = [
  ['passport', 'Passport'],
  ['id_card', 'Identity card'],
  ['driving_licence', 'Driving licence'],
  ['residence_permit', 'Residence permit'],
  ['selfie', 'Selfie'],
  ['proof_of_address', 'Proof of address'],
];
const OPEN = ['unverified', 'resubmission_required'];
/** Waiting for a decision: the page asks again every POLL_MS until it comes (or the page is left). */
const WAITING = ['pending', 'in_review'];
export const POLL_MS = 3000;

/** Where a verification stands, in plain words (the reviewer's reason is shown beside it). */
const DECISION: Record<string, string> = {
  unverified: 'Not sent yet: add your documents, then submit them for review.',
  pending: 'We are checking your documents. This page updates by itself.',
  in_review: 'A person is reviewing your documents. This page updates by itself.',
  verified: 'You are verified.',
  rejected: 'Your verification was not accepted.',
  resubmission_required: 'We need new documents from you: add them and submit again.',
  expired: 'Your verification has expired: send your documents again.',
};

/** The file itself as the body (…/documents/upload/?kind=): photos of a few MB never go through base64. */
async function upload(verificationId: string, kind: string, file: File): Promise<void> {
  const headers = { ...clientHeaders(), 'Content-Type': file.type || 'application/octet-stream' };
  let response: Response;
  try {
    response = await fetch(`${apiBase()}/api/v1/kyc/verifications/${encodeURIComponent(verificationId)}/documents/upload/?kind=${kind}`, {
      method: 'POST',
      headers,
      body: file,
    });
  } catch {
    throw new ApiError(0, 'network', plainMessage(0, { code: 'network' }), {});
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (response.status === 415) throw new ApiError(415, 'unsupported', 'Upload a photo (JPEG or PNG) or a PDF.', body);
  throw new ApiError(response.status, typeof body.code === 'string' ? body.code : 'error', plainMessage(response.status, body), body);
}

function Documents(props: { verification: Verification; onChange: () => void }) {
  const { verification } = props;
  const action = useAction();
  const [file, setFile] = useState<File | null>(null);
  const send = (event: Event) => {
    event.preventDefault();
    const kind = formValue(event.currentTarget as HTMLFormElement, 'kind');
    if (!file) return action.setError(new Error('Choose a file or take a photo first.'));
    void action.run(async () => (await upload(verification.id, kind, file), setFile(null), (event.target as HTMLFormElement).reset(), props.onChange()));
  };
  const submit = () =>
    action.run(async () => (await unwrap(api.POST('/api/v1/kyc/verifications/{id}/submit/', { params: { path: { id: verification.id } } })), props.onChange()));
  return (
    <>
      <ul class="list" id="documents">
        {verification.documents.map((d) => (
          <li key={d.id}>
            {words(d.kind)} · {Math.ceil(d.size / 1024)} KB · {dateTime(d.created_at)}
          </li>
        ))}
      </ul>
      <form onSubmit={send} noValidate>
        <Select id="kind" label="Document" options={KINDS} />
        <div class="field">
          <label for="document-file">Photo or scan (JPEG, PNG or PDF)</label>
          <input
            id="document-file"
            type="file"
            accept="image/jpeg,image/png,application/pdf"
            capture="environment"
            onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          />
        </div>
        <ErrorNote id="kyc-error" error={action.error} />
        <div class="actions">
          <button type="submit" class="secondary" disabled={action.busy}>
            Upload
          </button>
          <button type="button" onClick={() => void submit()} disabled={action.busy || !verification.documents.length}>
            Submit for review
          </button>
        </div>
      </form>
    </>
  );
}

function Start(props: { level: 'basic' | 'enhanced'; onChange: () => void }) {
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const [first_name, last_name] = [formValue(form, 'first_name'), formValue(form, 'last_name')];
    if (!first_name || !last_name) return action.setError(new Error('Enter your first and last name as on your documents.'));
    void action.run(
      async () => (await unwrap(api.POST('/api/v1/kyc/verifications/', { body: { level: props.level, first_name, last_name } })), props.onChange()),
    );
  };
  return (
    <form class="card narrow" onSubmit={submit} noValidate aria-labelledby="start-title">
      <h2 id="start-title">Verify your identity ({props.level})</h2>
      <Field id="first_name" label="First name" autoComplete="given-name" />
      <Field id="last_name" label="Last name" autoComplete="family-name" />
      <ErrorNote error={action.error} />
      <button type="submit" disabled={action.busy}>
        Start
      </button>
    </form>
  );
}

export function Kyc() {
  const { data, error, reload } = useLoad(() => unwrap(api.GET('/api/v1/kyc/')));
  const waiting = Boolean(data?.verifications.some((v) => WAITING.includes(v.state)));
  // follow a verification awaiting its decision: ask again every few seconds, stop once decided or when the page goes
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);
  const next =
    data && !data.verifications.some((v) => v.level === 'basic')
      ? 'basic'
      : data?.level === 'basic' && !data.verifications.some((v) => v.level === 'enhanced')
        ? 'enhanced'
        : null;
  return (
    <Page title="Identity">
      <ErrorNote error={error} />
      {!data && !error ? <Loading what="your verification" /> : null}
      {data ? (
        <>
          <Details
            id="kyc-level"
            rows={[
              ['Your level', words(data.level)],
              ['Level this service requires', words(data.required_level)],
            ]}
          />
          {next ? <Start level={next} onChange={reload} /> : null}
          {data.verifications.map((v) => (
            <section class="card narrow" key={v.id} aria-labelledby={`v-${v.id}`}>
              <h2 id={`v-${v.id}`}>{v.level === 'basic' ? 'Basic verification' : 'Enhanced verification'}</h2>
              <p>
                Status: <span class="tag kyc-state">{words(v.state)}</span>
              </p>
              <p class="kyc-decision" role="status" aria-live="polite">
                {DECISION[v.state] ?? words(v.state)} {v.reason ? <small>{v.reason}</small> : null}
              </p>
              {OPEN.includes(v.state) ? <Documents verification={v} onChange={reload} /> : null}
              {v.state === 'pending' || v.state === 'in_review' ? (
                <button type="button" class="secondary" onClick={reload}>
                  Check again
                </button>
              ) : null}
            </section>
          ))}
        </>
      ) : null}
    </Page>
  );
}
