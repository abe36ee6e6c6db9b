import { useSandbox } from './helpers';

const { api } = useSandbox();

describe('GET /v1/vendor', () => {
	it('returns type, webhook_url and preferences only', async () => {
		const res = await api().get('/v1/vendor');
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			type: expect.any(String),
			webhook_url: null,
			preferences: { email_enabled: true, webhook_enabled: false },
		});
	});
});

describe('PATCH /v1/vendor', () => {
	it('takes the flat webhook_enabled / webhook_url and answers {}', async () => {
		const res = await api().request('PATCH', '/v1/vendor', {
			body: { webhook_enabled: true, webhook_url: 'https://hooks.example.com/in' },
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({});
		const after = await api().get('/v1/vendor');
		expect(after.body.webhook_url).toBe('https://hooks.example.com/in');
		expect(after.body.preferences.webhook_enabled).toBe(true);
	});

	it('changes only the fields sent', async () => {
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: 'https://a.example.com/x' } });
		await api().request('PATCH', '/v1/vendor', { body: { webhook_enabled: true } });
		expect((await api().get('/v1/vendor')).body).toMatchObject({
			webhook_url: 'https://a.example.com/x',
			preferences: { webhook_enabled: true, email_enabled: true },
		});
	});

	it('clears the URL with "" or null', async () => {
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: 'https://a.example.com/x' } });
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: '' } });
		expect((await api().get('/v1/vendor')).body.webhook_url).toBeNull();
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: 'https://a.example.com/x' } });
		await api().request('PATCH', '/v1/vendor', { body: { webhook_url: null } });
		expect((await api().get('/v1/vendor')).body.webhook_url).toBeNull();
	});

	it('refuses the nested communication_preferences form of the public docs, changing nothing', async () => {
		const res = await api().request('PATCH', '/v1/vendor', {
			body: { communication_preferences: { webhooks_enabled: true, webhook_url: 'https://x.example.com' } },
		});
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(/communication_preferences/);
		expect((await api().get('/v1/vendor')).body.webhook_url).toBeNull();
	});

	it.each([
		[{ webhook_enabled: 'true' }, /webhook_enabled/],
		[{ webhook_url: 'not a url' }, /webhook_url/],
		[{ webhook_url: 42 }, /webhook_url/],
	])('answers 400 {error} naming the field for %j', async (body, pattern) => {
		const res = await api().request('PATCH', '/v1/vendor', { body });
		expect(res.status).toBe(400);
		expect(res.body.error).toMatch(pattern);
	});
});
