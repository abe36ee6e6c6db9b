/** The value as an absolute http(s) URL, or undefined: what the service can call back or download from. */
export function httpUrl(value: unknown): URL | undefined {
	if (typeof value !== 'string') return undefined;
	let url: URL;
	try {
		url = new URL(value.trim());
	} catch {
		return undefined;
	}
	return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}
