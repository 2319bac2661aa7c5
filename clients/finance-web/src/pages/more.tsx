/** On a phone: every page of the menu (the bottom bar holds the main three). */
import { visibleNav } from '../nav-visible';
import { to, useNode } from '../state';
import { Page } from '../ui/kit';

export function More() {
  const items = visibleNav(useNode());
  return (
    <Page title="More">
      <nav aria-label="All pages">
        <ul class="list">
          {items.map((item) => (
            <li key={item.route}>
              <a href={to(item.route)}>{item.label}</a>
            </li>
          ))}
        </ul>
      </nav>
    </Page>
  );
}
