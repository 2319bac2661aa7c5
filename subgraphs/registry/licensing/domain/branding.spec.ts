import { checkContrast, contrastOf, contrastRatio, parseHexColour, sniffImage } from './branding';

describe('branding colours', () => {
  it('accepts #rgb and #rrggbb (lower-cased), and refuses anything else naming the field', () => {
    expect(parseHexColour('#1A4F8B', 'primaryColor')).toBe('#1a4f8b');
    expect(parseHexColour(' #fa0 ', 'accentColor')).toBe('#ffaa00');
    for (const bad of ['1a4f8b', '#12345', 'red', '#ggg', '']) expect(() => parseHexColour(bad, 'primaryColor')).toThrow(/primaryColor must be a hex colour/);
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastOf('#1a4f8b')).toMatchObject({ textColour: '#ffffff' });
    expect(contrastOf('#ffee00')).toMatchObject({ textColour: '#000000' });
  });

  it('refuses a colour too light for a white page (3:1), accepts a dark one', () => {
    expect(() => checkContrast('#ffee00', 'primaryColor')).toThrow(/too light on a white page/);
    expect(() => checkContrast('#cccccc', 'accentColor')).toThrow(/accentColor/);
    expect(checkContrast('#1a4f8b', 'primaryColor').againstWhite).toBeGreaterThan(7);
  });
});

describe('sniffImage', () => {
  it('knows images by their magic bytes, never by a name or a declared type', () => {
    expect(sniffImage(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImage(Buffer.from('ffd8ffe000', 'hex'))).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffImage(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP')]))).toBe('image/webp');
    expect(sniffImage(Buffer.from('0000010001', 'hex'))).toBe('image/x-icon');
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeUndefined();
    expect(sniffImage(Buffer.from('<!doctype html>'))).toBeUndefined();
  });
});
