import { matchCompetition, pairingReadings, parsePairing } from './parse';
import { escapeHtml } from './replies';
import { ConfigError } from '../lib/config';
import { loadConfig } from '../test/support/platform/config';

describe('parsePairing', () => {
  it.each([
    ['Man Utd vs Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd VS. Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd v Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd v. Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd - Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd – Arsenal', 'Man Utd', 'Arsenal'],
    ['Man Utd — Arsenal', 'Man Utd', 'Arsenal'],
    ['  Paris Saint-Germain   vs  Olympique   Lyon ', 'Paris Saint-Germain', 'Olympique Lyon'],
    ["Nott'm Forest vs 1. FC Köln", "Nott'm Forest", '1. FC Köln'],
  ])('%j → %j vs %j', (text, home, away) => {
    expect(parsePairing(text)).toEqual({ home, away });
  });

  it.each(['', 'Arsenal', 'Arsenal vs', 'vs Arsenal', 'Arsenal-Chelsea', 'Arsenal vs Chelsea vs Spurs', 'Vsevolod'])('%j is no pairing', (text) => {
    expect(parsePairing(text)).toBeUndefined();
  });
});

describe('pairingReadings', () => {
  it('reads a spaced separator as the one reading', () => {
    expect(pairingReadings('Paris Saint-Germain vs Lyon')).toEqual([{ home: 'Paris Saint-Germain', away: 'Lyon' }]);
  });

  it.each([
    ['Arsenal-Chelsea', [['Arsenal', 'Chelsea']]],
    ['Man Utd–Spurs', [['Man Utd', 'Spurs']]],
    [
      'Paris Saint-Germain-Lyon',
      [
        ['Paris Saint-Germain', 'Lyon'],
        ['Paris Saint', 'Germain-Lyon'],
      ],
    ],
  ])('reads %j at each dash between words, the last first', (text, readings) => {
    expect(pairingReadings(text)).toEqual(readings.map(([home, away]) => ({ home, away })));
  });

  it.each(['', 'Arsenal', '-Arsenal', 'Arsenal-', 'Arsenal vs', 'Arsenal - Chelsea - Spurs'])('%j has no reading', (text) => {
    expect(pairingReadings(text)).toEqual([]);
  });
});

describe('matchCompetition', () => {
  const competitions = [
    { code: 'en.1', name: 'English Premier League', country: 'England', tier: 1 },
    { code: 'en.2', name: 'English Championship', country: 'England', tier: 2 },
    { code: 'de.1', name: 'Bundesliga', country: 'Germany', tier: 1 },
    { code: 'es.1', name: 'La Liga', country: 'Spain', tier: 1 },
    { code: 'fr.1', name: 'Ligue 1', country: 'France', tier: 1 },
  ];
  const code = (query: string) => {
    const m = matchCompetition(query, competitions);
    return m.kind === 'found' ? m.competition.code : m.kind === 'ambiguous' ? m.candidates.map((c) => c.code) : m.kind;
  };

  it.each([
    ['en.1', 'en.1'],
    ['EN.2', 'en.2'],
    ['Premier League', 'en.1'],
    ['premier', 'en.1'],
    ['EPL', 'en.1'],
    ['championship', 'en.2'],
    ['bundesliga', 'de.1'],
    ['Germany', 'de.1'],
    ['la liga', 'es.1'],
    ['LIGUE 1', 'fr.1'],
    ['England', ['en.1', 'en.2']],
    ['english', ['en.1', 'en.2']],
    ['Eredivisie', 'not_found'],
    ['  ', 'not_found'],
  ])('%j → %j', (query, expected) => {
    expect(code(query)).toEqual(expected);
  });
});

describe('escapeHtml', () => {
  it('escapes what Telegram HTML needs and nothing else', () => {
    expect(escapeHtml('Brighton & Hove <Albion> "1. FC" O\'Neil')).toBe('Brighton &amp; Hove &lt;Albion&gt; "1. FC" O\'Neil');
  });
});

describe('bot settings', () => {
  it('treats empty values as unset (docker compose passes them through)', () => {
    const c = loadConfig({ TELEGRAM_BOT_TOKEN: '', TELEGRAM_API_ROOT: '', BOT_API_KEY: ' ', TELEGRAM_WEBHOOK_URL: '' });
    expect([c.TELEGRAM_BOT_TOKEN, c.TELEGRAM_API_ROOT, c.BOT_API_KEY, c.TELEGRAM_WEBHOOK_URL]).toEqual([undefined, undefined, undefined, undefined]);
    expect([c.BOT_PORT, c.BOT_RATE_LIMIT, c.BOT_RATE_WINDOW_SECONDS, c.BOT_TIME_ZONE]).toEqual([8443, 8, 10, 'UTC']);
  });

  it('requires the webhook secret with a webhook URL, and checks the token and the time zone', () => {
    expect(() => loadConfig({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/telegram' })).toThrow(/TELEGRAM_WEBHOOK_SECRET: required/);
    expect(() => loadConfig({ TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/telegram', TELEGRAM_WEBHOOK_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: 'not a token' })).toThrow(/TELEGRAM_BOT_TOKEN/);
    expect(() => loadConfig({ BOT_TIME_ZONE: 'Mars/Olympus' })).toThrow(/BOT_TIME_ZONE/);
    expect(loadConfig({ TELEGRAM_BOT_TOKEN: '123456789:AAE-x_y', BOT_TIME_ZONE: 'Europe/London' })).toMatchObject({
      TELEGRAM_BOT_TOKEN: '123456789:AAE-x_y',
      BOT_TIME_ZONE: 'Europe/London',
    });
  });
});
