import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../../lib/html';

/**
 * Markdown (changelogs, notes written by a vendor) rendered to HTML that is safe to embed: raw HTML
 * in the source is shown as text, links only to http(s) and mailto (never `javascript:`), images
 * become their alt text (no request to a host the author chose).
 */
const markdown = new Marked({ gfm: true, breaks: true, async: false });
markdown.use({
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link({ href, title, tokens }: Tokens.Link) {
      const text = this.parser.parseInline(tokens);
      if (!/^(https?:|mailto:)/i.test(href)) return text;
      return `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
});

export function renderMarkdown(source: string): string {
  return markdown.parse(source ?? '') as string;
}
