/**
 * The bot's conversations, update by update (`bot.handleUpdate`), through the real gateway and
 * subgraphs; only Telegram is a transformer that records the Bot API calls.
 */
import { COMMANDS } from '../../../../bot/commands';
import { formatKickoff } from '../../../../bot/replies';
import { startTestApp, type TestApp } from '../../../support/platform/app';
import { botUnderTest, gql, onlyMessage, type BotUnderTest } from '../../../support/predictions/bot';
import { buttonsOf } from '../../../support/predictions/telegram';

let t: TestApp;
let bot: BotUnderTest;

beforeAll(async () => {
  t = await startTestApp();
  bot = botUnderTest(t, await t.createKey('enterprise'));
}, 120_000);
afterAll(() => t?.stop());

const percent = (p: number) => `${Math.round(p * 100)}%`;

async function teamId(name: string): Promise<number> {
  const { resolveTeam } = await gql(t, 'query($name: String!) { resolveTeam(name: $name) { team { id } } }', { name });
  return resolveTeam.team.id;
}

async function reply(text: string) {
  return onlyMessage(await bot.say(text));
}

describe('/start and /help', () => {
  it('/start greets by first name (escaped) and points to /help', async () => {
    const m = onlyMessage(await bot.say('/start', { firstName: 'Ann <& Bo>' }));
    expect(m.payload.parse_mode).toBe('HTML');
    expect(m.payload.text).toContain('Hello Ann &lt;&amp; Bo&gt;!');
    expect(m.payload.text).toContain('/help');
  });

  it('/help lists every command with a one-line description', async () => {
    const m = await reply('/help');
    const lines = (m.payload.text as string).split('\n');
    for (const c of COMMANDS) expect(lines.find((l) => l.startsWith(`/${c.command}`))).toContain(c.description);
    expect(m.payload.text).toContain('/predict &lt;home team&gt; vs &lt;away team&gt;');
  });

  it('answers other text in a private chat with a pointer to /help, and says which command it does not know', async () => {
    expect((await reply('hello there')).payload.text).toBe('Send /help to see what I can do.');
    expect((await reply('/standings')).payload.text).toBe("I don't know /standings. Send /help for the commands.");
  });
});

describe('/predict', () => {
  it('answers with the outcome, the three probabilities, the goal difference, confidence and band, as the gateway predicts', async () => {
    const m = await reply('/predict Man Utd vs spurs');
    const { predict } = await gql(
      t,
      '{ predict(home: "Man Utd", away: "spurs") { outcomeLabel confidence confidenceBand probabilities { home draw away } expectedGoalDifference versionNumber } }',
    );
    const text = m.payload.text as string;
    expect(m.payload.parse_mode).toBe('HTML');
    expect(text.split('\n')[0]).toBe('<b>Manchester United FC</b> vs <b>Tottenham Hotspur FC</b>');
    expect(text).toContain('English Premier League · ');
    expect(text).toContain(`Prediction: <b>${predict.outcomeLabel}</b>`);
    const { home, draw, away } = predict.probabilities;
    expect(text).toContain(`Home win ${percent(home)} · Draw ${percent(draw)} · Away win ${percent(away)}`);
    const diff = predict.expectedGoalDifference as number;
    expect(text).toContain(`Expected goal difference: ${diff >= 0 ? '+' : '-'}${Math.abs(diff).toFixed(2)}`);
    expect(text).toContain(`Confidence: ${percent(predict.confidence)} (${(predict.confidenceBand as string).toLowerCase()})`);
    expect(text).toContain(`Model version ${predict.versionNumber}`);
  });

  it('gives the kick-off when the pairing is scheduled, and says so when it is not', async () => {
    const { matches } = await gql(
      t,
      '{ matches(filter: { status: SCHEDULED, competition: "en.1" }, first: 1) { nodes { kickoff homeTeam { name } awayTeam { name } } } }',
    );
    const [fixture] = matches.nodes;
    const scheduled = await reply(`/predict ${fixture.homeTeam.name} vs ${fixture.awayTeam.name}`);
    expect(scheduled.payload.text).toContain(`kick-off ${formatKickoff(new Date(fixture.kickoff), 'UTC')}`);
    const friendly = await reply('/predict Arsenal vs Bayern');
    expect(friendly.payload.text).toContain('not scheduled: the forecast is for a match played today');
  });

  it.each([
    ['Man Utd v spurs', 'Manchester United FC', 'Tottenham Hotspur FC'],
    ['man utd - SPURS', 'Manchester United FC', 'Tottenham Hotspur FC'],
    ['Atletico – real madrid', 'Atlético Madrid', 'Real Madrid'],
    ['MÜNCHEN vs. dortmund', 'Bayern München', 'Borussia Dortmund'],
    ['Paris Saint-Germain vs Marseille', 'Paris Saint-Germain', 'Olympique de Marseille'],
  ])('reads %j: aliases, case, accents and every separator', async (args, home, away) => {
    const m = await reply(`/predict ${args}`);
    expect((m.payload.text as string).split('\n')[0]).toBe(`<b>${home}</b> vs <b>${away}</b>`);
  });

  it('escapes team names for Telegram HTML; dots and apostrophes arrive as they are', async () => {
    const english = await reply("/predict Brighton vs Nott'm Forest");
    expect((english.payload.text as string).split('\n')[0]).toBe('<b>Brighton &amp; Hove Albion FC</b> vs <b>Nottingham Forest FC</b>');
    const german = await reply('/predict Köln vs Mainz');
    expect((german.payload.text as string).split('\n')[0]).toBe('<b>1. FC Köln</b> vs <b>1. FSV Mainz 05</b>');
    const unknown = await reply('/predict <b>Hogwarts</b> & Co vs Arsenal');
    expect(unknown.payload.text).toContain('“&lt;b&gt;Hogwarts&lt;/b&gt; &amp; Co”');
  });

  it.each(['/predict', '/predict Arsenal', '/predict Arsenal vs', '/predict vs Chelsea', '/predict Arsenal vs Chelsea vs Spurs'])(
    '%j gets the usage line',
    async (command) => {
      const m = await reply(command);
      expect(m.payload.text).toBe('Usage: /predict &lt;home team&gt; vs &lt;away team&gt;, e.g. /predict Man Utd vs Arsenal');
    },
  );

  it('asks which team an ambiguous name means, with a button per candidate, and answers the press in place', async () => {
    const question = await reply('/predict Manchester vs Arsenal');
    expect(question.payload.text).toBe('“Manchester” (home) could be several teams.\nWhich one did you mean for the home team?');
    const arsenal = await teamId('Arsenal');
    const city = await teamId('Manchester City');
    expect(buttonsOf(question)).toEqual([
      ['Manchester City FC', `p:${city}:${arsenal}`],
      ['Manchester United FC', `p:${await teamId('Manchester United')}:${arsenal}`],
    ]);
    const calls = await bot.press(`p:${city}:${arsenal}`, { messageId: 77 });
    expect(calls.map((c) => c.method)).toEqual(['answerCallbackQuery', 'editMessageText']);
    expect(calls[1].payload.message_id).toBe(77);
    expect((calls[1].payload.text as string).split('\n')[0]).toBe('<b>Manchester City FC</b> vs <b>Arsenal FC</b>');
  });

  it('settles two ambiguous names one after the other', async () => {
    const first = await reply('/predict Manchester vs Madrid');
    const city = await teamId('Manchester City');
    expect(buttonsOf(first)[0]).toEqual(['Manchester City FC', `p:${city}:=Madrid`]);
    const second = onlyMessage(await bot.press(`p:${city}:=Madrid`));
    expect(second.payload.text).toBe('“Madrid” (away) could be several teams.\nWhich one did you mean for the away team?');
    const real = await teamId('Real Madrid');
    expect(buttonsOf(second)).toContainEqual(['Real Madrid', `p:${city}:${real}`]);
    const answer = onlyMessage(await bot.press(`p:${city}:${real}`));
    expect((answer.payload.text as string).split('\n')[0]).toBe('<b>Manchester City FC</b> vs <b>Real Madrid</b>');
  });

  it('offers the closest spellings of an unknown name as buttons', async () => {
    const m = await reply('/predict Cheslea vs Arsenal');
    expect(m.payload.text).toContain("I don't know a team called “Cheslea” (home). Did you mean one of these?");
    expect(buttonsOf(m)[0]).toEqual(['Chelsea FC', `p:${await teamId('Chelsea')}:${await teamId('Arsenal')}`]);
  });

  it('says plainly when a name matches nothing, with the usage line', async () => {
    const m = await reply('/predict Hogwarts vs Arsenal');
    expect(m.payload.text).toBe(
      "I don't know a team called “Hogwarts” (home).\n\nUsage: /predict &lt;home team&gt; vs &lt;away team&gt;, e.g. /predict Man Utd vs Arsenal",
    );
    expect(m.payload.reply_markup).toBeUndefined();
  });

  it('names the candidates in the text when a name is a dead end on the other side', async () => {
    const m = await reply('/predict Manchestr vs Hogwarts');
    expect(m.payload.text).toBe(
      "I don't know a team called “Manchestr” (home). Did you mean Manchester City FC or Manchester United FC?\n" +
        "I don't know a team called “Hogwarts” (away).\n\n" +
        'Usage: /predict &lt;home team&gt; vs &lt;away team&gt;, e.g. /predict Man Utd vs Arsenal',
    );
    expect(m.payload.reply_markup).toBeUndefined();
  });

  it('names the candidates in the text when a button could not carry the other name (64 bytes)', async () => {
    const away = 'Madrid Madrid Madrid Madrid Madrid Madrid Madrid Madrid Madrid Madrid';
    const m = await reply(`/predict Manchester vs ${away}`);
    expect(m.payload.reply_markup).toBeUndefined();
    expect(m.payload.text).toContain('“Manchester” (home) could be several teams: Manchester City FC, Manchester United FC.');
    expect(m.payload.text).toContain(`“${away}” (away) could be several teams: Atlético Madrid, Real Madrid`);
  });

  it('passes on what the gateway says about a team playing itself', async () => {
    const m = await reply('/predict Arsenal vs Arsenal FC');
    expect(m.payload.text).toBe('A team cannot play itself (Arsenal FC).');
  });
});

describe('/predict, as people type it', () => {
  it.each([
    ['Arsenal-Chelsea', 'Arsenal FC', 'Chelsea FC'],
    ['man utd–spurs', 'Manchester United FC', 'Tottenham Hotspur FC'],
    ['Paris Saint-Germain-Lyon', 'Paris Saint-Germain', 'Olympique Lyonnais'],
    ['Lyon-Paris Saint-Germain', 'Olympique Lyonnais', 'Paris Saint-Germain'],
  ])('reads %j without spaces around the dash', async (args, home, away) => {
    const m = await reply(`/predict ${args}`);
    expect((m.payload.text as string).split('\n')[0]).toBe(`<b>${home}</b> vs <b>${away}</b>`);
  });

  it('labels a pairing of two leagues as such, never as one league', async () => {
    const m = await reply('/predict Bayern Munich vs Real Madrid');
    expect((m.payload.text as string).split('\n')[1]).toMatch(/^Cross-league: Bundesliga v La Liga · /);
  });

  it("flags a side whose latest match is older than a season, with its rating's age", async () => {
    const text = (await reply('/predict Wigan vs Arsenal')).payload.text as string;
    expect(text.split('\n')[1]).toMatch(/^Cross-league: English Championship v English Premier League · /);
    expect(text).toContain('⚠️ Wigan Athletic FC: no match in the data since 2023-05-08 (2 years ago); its rating is that old.');
    expect(text).not.toContain('⚠️ Arsenal');
  });

  it('refuses, politely, input longer than any pairing, without asking the gateway', async () => {
    const calls = await bot.say(`/predict ${'Arsenal '.repeat(20)}vs Chelsea`);
    expect(calls.map((c) => c.method)).toEqual(['sendMessage']);
    expect(calls[0].payload.text).toBe(
      'That is longer than I can read (120 characters at most). Please send just the team names, e.g. /predict Arsenal vs Chelsea.',
    );
  });

  it('in a group, answers a command addressed to it and ignores one addressed to another bot', async () => {
    expect(await bot.say('/predict@OtherBot Arsenal vs Chelsea', { group: true })).toEqual([]);
    expect(await bot.say('/nextmatch@OtherBot', { group: true })).toEqual([]);
    const ours = onlyMessage(await bot.say('/predict@matchday_test_bot Arsenal vs Chelsea', { group: true }));
    expect((ours.payload.text as string).split('\n')[0]).toBe('<b>Arsenal FC</b> vs <b>Chelsea FC</b>');
  });
});

describe('/nextmatch', () => {
  const NEXT = '{ kickoff competition { name } homeTeam { name } awayTeam { name } prediction { outcomeLabel confidence } }';

  it('answers with the next scheduled match and its prediction', async () => {
    const { nextMatch } = await gql(t, `{ nextMatch ${NEXT} }`);
    const text = (await reply('/nextmatch')).payload.text as string;
    expect(text.split('\n').slice(0, 3)).toEqual([
      `Next match in ${nextMatch.competition.name}:`,
      `<b>${nextMatch.homeTeam.name}</b> vs <b>${nextMatch.awayTeam.name}</b>`,
      `Kick-off ${formatKickoff(new Date(nextMatch.kickoff), 'UTC')}`,
    ]);
    expect(text).toContain(`Prediction: <b>${nextMatch.prediction.outcomeLabel}</b>`);
    expect(text).toContain(`Confidence: ${percent(nextMatch.prediction.confidence)}`);
  });

  it.each(['en.1', 'EN.1', 'Premier League', 'premier', 'EPL'])('takes a competition by code or name: %j', async (arg) => {
    const { nextMatch } = await gql(t, `{ nextMatch(competition: "en.1") ${NEXT} }`);
    const text = (await reply(`/nextmatch ${arg}`)).payload.text as string;
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Next match in English Premier League:',
      `<b>${nextMatch.homeTeam.name}</b> vs <b>${nextMatch.awayTeam.name}</b>`,
    ]);
  });

  it('asks which competition an ambiguous name means, and answers the press', async () => {
    const question = await reply('/nextmatch England');
    expect(question.payload.text).toBe('“England” could be several competitions. Which one?');
    expect(buttonsOf(question)).toEqual([
      ['English Premier League (en.1)', 'n:en.1'],
      ['English Championship (en.2)', 'n:en.2'],
    ]);
    const answer = onlyMessage(await bot.press('n:en.2'));
    expect(answer.method).toBe('editMessageText');
    expect((answer.payload.text as string).split('\n')[0]).toBe('Next match in English Championship:');
  });

  it('lists the competitions for an unknown one', async () => {
    const m = await reply('/nextmatch Eredivisie');
    expect(m.payload.text).toContain("I don't know the competition “Eredivisie”. Choose one:");
    expect(buttonsOf(m).map(([, data]) => data)).toEqual(['n:en.1', 'n:en.2', 'n:fr.1', 'n:de.1', 'n:it.1', 'n:es.1']);
  });
});

describe('buttons', () => {
  it('answers a button whose data it does not know by saying the choice expired', async () => {
    const calls = await bot.press('x:whatever');
    expect(calls.map((c) => c.method)).toEqual(['answerCallbackQuery', 'editMessageText']);
    expect(calls[1].payload.text).toBe('That choice has expired. Send the command again, please.');
  });
});
