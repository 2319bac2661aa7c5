/** A small typed element builder: the client renders with the DOM itself (no framework to download). */
type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A labelled form field: the label names the input for screen readers and enlarges its target. */
export function field(id: string, label: string, input: Attributes): HTMLDivElement {
  return h('div', { class: 'field' }, h('label', { for: id }, label), h('input', { id, name: id, ...input }));
}
