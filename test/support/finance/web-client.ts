import type { Page } from 'playwright-core';
import type { outbox, ReadMail } from '../platform/mail';

/**
 * The finance web client (/app/) as a person uses it in Chromium: sign in, open a page by its address,
 * open a page from the menu as on a phone, follow the link the node mailed. The browser tests of
 * test/finance/e2e/finance-web/ share these instead of each writing its own.
 */

/** Signs in at /app/ with the form and waits for Home. */
export async function signInToWebClient(page: Page, finance: string, username: string, password: string): Promise<void> {
  await page.goto(`${finance}/app/`);
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
}

/** Opens a page of the menu as a person on a phone does: from the bottom bar, or from More. */
export async function tapMenu(page: Page, label: string, heading = label): Promise<void> {
  const quick = page.getByRole('navigation', { name: 'Quick' });
  const direct = quick.getByRole('link', { name: label, exact: true });
  if (await direct.count()) await direct.click();
  else {
    await quick.getByRole('link', { name: 'More', exact: true }).click();
    await page.getByRole('navigation', { name: 'All pages' }).getByRole('link', { name: label, exact: true }).click();
  }
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** The next mail to `to` in the node's outbox and the /app/ link in it (a token link), made absolute on this node. */
export async function mailedLink(mail: ReturnType<typeof outbox>, to: string, finance: string): Promise<{ mail: ReadMail; link: string }> {
  for (let i = 0; i < 200; i++) {
    const got = (await mail.fresh()).find((m) => m.to === to);
    if (got) {
      const path = /(?:https?:\/\/[^/\s]+)?(\/app\/[^\s?]+\?token=[A-Za-z0-9_%-]+)/.exec(got.text)?.[1];
      if (!path) throw new Error(`no link in: ${got.text}`);
      return { mail: got, link: `${finance}${path}` };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

/**
 * The web client of one test file, its page and node read when used (both are made in beforeAll):
 * `url(route)`, `go(route, heading)`, `tap(label)`, `signIn(username, password)`, `linkIn(mail, to)`.
 */
export function webClient(page: () => Page, finance: () => string) {
  const url = (route = '') => `${finance()}/app/${route}`;
  return {
    url,
    go: async (route: string, heading: string): Promise<void> => {
      await page().goto(url(route));
      await page().getByRole('heading', { name: heading, level: 1 }).waitFor();
    },
    tap: (label: string, heading = label) => tapMenu(page(), label, heading),
    signIn: (username: string, password: string) => signInToWebClient(page(), finance(), username, password),
    linkIn: (mail: ReturnType<typeof outbox>, to: string) => mailedLink(mail, to, finance()),
  };
}
