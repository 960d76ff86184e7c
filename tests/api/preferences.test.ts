import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/** The trader's preferences: the time zone every trading day is computed in, and the theme. */
describe.each(backends())('preferences on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  async function newTrader(): Promise<ApiClient> {
    const client = app.client();
    expect((await client.signUp(uniqueEmail())).status).toBe(200);
    return client;
  }

  it('starts dark in New York time', async () => {
    const trader = await newTrader();
    expect((await trader.get('/api/preferences')).body).toMatchObject({ theme: 'dark', time_zone: 'America/New_York' });
  });

  it('saves an IANA time zone and the theme, and keeps them', async () => {
    const trader = await newTrader();
    const res = await trader.patch('/api/preferences', { time_zone: 'Asia/Kolkata', theme: 'light' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ time_zone: 'Asia/Kolkata', theme: 'light' });
    // A patch of one field leaves the other alone.
    expect((await trader.patch('/api/preferences', { theme: 'dark' })).body).toMatchObject({ time_zone: 'Asia/Kolkata', theme: 'dark' });
    expect((await trader.get('/api/preferences')).body).toMatchObject({ time_zone: 'Asia/Kolkata', theme: 'dark' });
    expect((await trader.patch('/api/preferences', { time_zone: 'UTC' })).body.time_zone).toBe('UTC');
  });

  it('refuses a time zone that is not an IANA zone, naming time_zone, and changes nothing', async () => {
    const trader = await newTrader();
    for (const time_zone of ['Mars/Olympus', 'New York', '', 'America/New_York; drop table trades', 42]) {
      const res = await trader.patch('/api/preferences', { time_zone, theme: 'light' });
      expect(res.status, String(time_zone)).toBe(400);
      expect(res.body.error, String(time_zone)).toMatch(/^time_zone: /);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['time_zone']);
    }
    expect((await trader.get('/api/preferences')).body).toMatchObject({ theme: 'dark', time_zone: 'America/New_York' });
  });

  it("takes the browser's zone as the trader's own at the first sign-in, once", async () => {
    // A zone whose today differs from New York's right now (UTC+14 or UTC-11: one of them always does).
    const dayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    const zone = dayIn('Pacific/Kiritimati') !== dayIn('America/New_York') ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const trader = await newTrader();
    expect((await trader.post('/api/onboarding', { time_zone: zone })).body).toEqual({ created: true });
    expect((await trader.get('/api/preferences')).body).toMatchObject({ time_zone: zone, onboarded: true });
    // The onboarding tasks are dated today on the trader's clock, not New York's.
    expect((await trader.get(`/api/tasks?date=${dayIn(zone)}`)).body).toHaveLength(5);
    // Later sign-ins, from anywhere, leave it alone; so does a choice made in Profile Settings.
    expect((await trader.post('/api/onboarding', { time_zone: 'Europe/London' })).body).toEqual({ created: false });
    expect((await trader.get('/api/preferences')).body.time_zone).toBe(zone);
    expect((await trader.patch('/api/preferences', { time_zone: 'Europe/Berlin' })).status).toBe(200);
    expect((await trader.post('/api/onboarding', { time_zone: 'Asia/Tokyo' })).body).toEqual({ created: false });
    expect((await trader.get('/api/preferences')).body.time_zone).toBe('Europe/Berlin');
  });

  it('keeps New York when the first sign-in sends no zone, and refuses an unknown one naming time_zone', async () => {
    const quiet = await newTrader();
    // An empty body is allowed (older pages post nothing).
    const empty = await quiet.request('POST', '/api/onboarding');
    expect(empty.status).toBe(200);
    expect((await quiet.get('/api/preferences')).body).toMatchObject({ time_zone: 'America/New_York', onboarded: true });

    const trader = await newTrader();
    for (const time_zone of ['Mars/Olympus', '', 'GMT+5', 7]) {
      const res = await trader.post('/api/onboarding', { time_zone });
      expect(res.status, String(time_zone)).toBe(400);
      expect(res.body.error, String(time_zone)).toMatch(/^time_zone: /);
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['time_zone']);
    }
    // Refused, so nothing happened: no samples, not onboarded, still New York; a good zone then works.
    expect((await trader.get('/api/preferences')).body).toMatchObject({ time_zone: 'America/New_York', onboarded: false });
    expect((await trader.post('/api/onboarding', { time_zone: 'Australia/Sydney' })).body).toEqual({ created: true });
    expect((await trader.get('/api/preferences')).body.time_zone).toBe('Australia/Sydney');
  });

  it('accepts only the dark and light themes', async () => {
    const trader = await newTrader();
    for (const theme of ['blue', 'DARK', '', null]) {
      const res = await trader.patch('/api/preferences', { theme });
      expect(res.status, String(theme)).toBe(400);
      expect(res.body.error, String(theme)).toMatch(/^theme: /);
    }
    expect((await trader.get('/api/preferences')).body.theme).toBe('dark');
  });

  it('refuses fields it does not know and bodies that are not JSON', async () => {
    const trader = await newTrader();
    const unknown = await trader.patch('/api/preferences', { user_id: 'someone-else', theme: 'light' });
    expect(unknown.status).toBe(400);
    const notJson = await trader.request('PATCH', '/api/preferences', undefined, { 'content-type': 'application/json' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'Request body must be JSON' });
    expect((await trader.get('/api/preferences')).body.theme).toBe('dark');
  });

  it('needs a signed-in trader', async () => {
    const visitor = app.client();
    expect(await visitor.get('/api/preferences')).toEqual({ status: 401, body: { error: 'Not authenticated' } });
    expect((await visitor.patch('/api/preferences', { theme: 'light' })).status).toBe(401);
  });
});
