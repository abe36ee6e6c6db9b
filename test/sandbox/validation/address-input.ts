// Address rules of the contract for create and update: all nine fields are required strings (address2 may be
// empty); US and its territories only; territories need city == state_abbr; strict zip and phone formats.
import { isPlainObject } from '../http';
import type { CheckResult } from './item-input';

export const ADDRESS_FIELDS = [
	'first_name',
	'last_name',
	'address1',
	'address2',
	'city',
	'state_abbr',
	'zipcode',
	'country_iso',
	'phone',
] as const;

export type AddressInput = Record<(typeof ADDRESS_FIELDS)[number], string> & { email: string | null };

/** Territory state abbreviation -> its ISO 3166-1 alpha-2 and alpha-3 codes. */
const TERRITORIES: Record<string, string[]> = {
	PR: ['PR', 'PRI'],
	GU: ['GU', 'GUM'],
	VI: ['VI', 'VIR'],
	AS: ['AS', 'ASM'],
	MP: ['MP', 'MNP'],
};

// prettier-ignore
const US_STATES = new Set(['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
	'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK',
	'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY']);

export const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;
/** (###) ###-####, ###-###-#### or ##########, nothing else. */
export const PHONE_PATTERN = /^(\(\d{3}\) \d{3}-\d{4}|\d{3}-\d{3}-\d{4}|\d{10})$/;

/** The territory an ISO code names, 'US' for the states, or undefined when unsupported. */
function countryRegion(iso: string): string | undefined {
	const code = iso.toUpperCase();
	if (code === 'US' || code === 'USA') return 'US';
	return Object.keys(TERRITORIES).find((t) => TERRITORIES[t].includes(code));
}

export function checkAddressInput(raw: unknown): CheckResult<AddressInput> {
	if (!isPlainObject(raw)) return { errors: ['address is invalid: must be a JSON object'] };
	const errors: string[] = [];
	for (const f of ADDRESS_FIELDS) {
		const v = raw[f];
		if (v === undefined || v === null) errors.push(`${f} is required`);
		else if (typeof v !== 'string') errors.push(`${f} is invalid: must be a string`);
		else if (f !== 'address2' && v.trim() === '') errors.push(`${f} is required`);
	}
	if (raw.email !== undefined && raw.email !== null && typeof raw.email !== 'string') errors.push('email is invalid: must be a string');
	if (errors.length) return { errors };
	const input = { ...(raw as AddressInput), email: (raw.email as string | undefined) ?? null };

	const region = countryRegion(input.country_iso);
	const state = input.state_abbr.toUpperCase();
	if (!region) {
		errors.push(
			'country_iso is invalid: only the United States and its territories are supported (US/USA, PR/PRI, GU/GUM, VI/VIR, AS/ASM, MP/MNP)',
		);
	} else {
		const territory = region !== 'US' ? region : TERRITORIES[state] ? state : undefined;
		if (territory) {
			if (state !== territory) errors.push(`state_abbr is invalid: must be ${territory} for country_iso ${input.country_iso}`);
			else if (input.city.toUpperCase() !== state) {
				errors.push(`city is invalid: for US territories city must equal state_abbr (${territory})`);
			}
		} else if (!US_STATES.has(state)) {
			errors.push('state_abbr is invalid: not a US state abbreviation');
		}
	}
	if (!ZIP_PATTERN.test(input.zipcode)) errors.push('zipcode is invalid: must be ##### or #####-####');
	if (!PHONE_PATTERN.test(input.phone)) errors.push('phone is invalid: must be (###) ###-####, ###-###-#### or ##########');
	if (errors.length) return { errors };
	return { errors, value: { ...input, country_iso: input.country_iso.toUpperCase(), state_abbr: state } };
}
