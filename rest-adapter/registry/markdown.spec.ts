import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders lists, emphasis and http links', () => {
    const out = renderMarkdown('Fixes:\n- **faster** sync\n- see [notes](https://vendor.example/notes)');
    expect(out).toContain('<strong>faster</strong>');
    expect(out).toContain('<a href="https://vendor.example/notes" rel="noopener noreferrer nofollow">notes</a>');
  });

  it('shows raw HTML as text, drops script links and images', () => {
    const out = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)> [click](javascript:alert(1)) ![tracker](https://evil.example/p.png)');
    expect(out).not.toMatch(/<script|<img|javascript:|evil\.example/);
    expect(out).toContain('&lt;script&gt;');
    expect(out).toContain('click');
    expect(out).toContain('tracker');
  });
});
