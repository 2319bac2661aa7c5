/** The small kit every page is built from: page frame, labelled fields, errors, loading. */
import type { ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useState } from 'preact/hooks';
import { apiBase } from '../api/client';
import { ApiError } from '../api/errors';
import { NodeContext } from '../state';

export function Page(props: { title: string; children?: ComponentChildren; lead?: string }) {
  return (
    <section class="page">
      <h1 id="page-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.lead ? <p class="lead">{props.lead}</p> : null}
      {props.children}
    </section>
  );
}

/** The input's own attributes (type, autoComplete, inputMode, required…) pass through. */
type InputProps = { id: string; label: string; hint?: string; error?: string } & Record<string, unknown>;

/** A labelled input: the label names it for screen readers, the hint and error are described by it. */
export function Field({ id, label, hint, error, ...input }: InputProps) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} name={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...input} />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

type SelectProps = { id: string; label: string; options: (string | [string, string])[] } & Record<string, unknown>;

export function Select({ id, label, options, ...select }: SelectProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={id} {...select}>
        {options.map((option) => {
          const [value, text] = Array.isArray(option) ? option : [option, option];
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** An error in plain language, announced to screen readers. */
export function ErrorNote(props: { error: unknown; id?: string }) {
  if (!props.error) return <p id={props.id} class="error" role="alert" />;
  const text = props.error instanceof Error ? props.error.message : String(props.error as string);
  return (
    <p id={props.id} class="error" role="alert">
      {text}
    </p>
  );
}

export function Loading(props: { what?: string }) {
  return (
    <p class="loading" role="status">
      Loading {props.what ?? ''}…
    </p>
  );
}

/** Data loaded once per change of `deps`, with its error and a reload. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): { data: T | undefined; error: unknown; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    load().then(
      (value) => live && setData(value),
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { data, error, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/** A form action's state: busy while it runs, its error (in words) once it fails. */
export function useAction(): { busy: boolean; error: unknown; run: <T>(action: () => Promise<T>) => Promise<T | undefined>; setError: (e: unknown) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (failure) {
      setError(failure instanceof ApiError || failure instanceof Error ? failure : new Error('Something went wrong.'));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

/** The value of a form's field by name. */
export const formValue = (form: HTMLFormElement, name: string): string => {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value.trim() : '';
};

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

/** A definition list of label → value rows (receipts, details to share). */
export function Details(props: { rows: [string, ComponentChildren][]; id?: string }) {
  return (
    <dl class="details" id={props.id}>
      {props.rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * Development only (the node's configuration names its outbox; null in production): a link to the page
 * listing the mails and text messages the node "sent", beside every screen that says "check your mail"
 * or asks for a code.
 */
export function DevOutboxLink(props: { what: string }) {
  const outbox = useContext(NodeContext).config?.development?.outbox;
  if (!outbox) return null;
  return (
    <p class="aside dev-outbox">
      Development node: nothing really leaves it.{' '}
      <a href={`${apiBase()}${outbox}`} target="_blank" rel="noopener">
        Open the outbox
      </a>{' '}
      to read {props.what}.
    </p>
  );
}
