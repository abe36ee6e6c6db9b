/** The contract's address rules 1-4 (docs/vendor-api.md, "Address"); built with ruleSchemas.ts, as schemas.ts. */
import type { z } from 'zod';

import { matching, optionalText, parseWith, requiredText, shown } from './fieldRules';
import { fields, refuse, rule, type Refusal } from './ruleSchemas';

/** ISO alpha-2 and alpha-3 → the territory's USPS abbreviation, which its addresses carry as state_abbr and city. */
const US_COUNTRY_CODES: Readonly<Record<string, { territory: string | undefined }>> = {
	US: { territory: undefined },
	USA: { territory: undefined },
	PR: { territory: 'PR' },
	PRI: { territory: 'PR' },
	GU: { territory: 'GU' },
	GUM: { territory: 'GU' },
	VI: { territory: 'VI' },
	VIR: { territory: 'VI' },
	AS: { territory: 'AS' },
	ASM: { territory: 'AS' },
	MP: { territory: 'MP' },
	MNP: { territory: 'MP' },
};

/** The territories' standard abbreviations: with country US/USA, such a state_abbr still makes a territory address. */
const TERRITORY_STATE_CODES = new Set(['PR', 'GU', 'VI', 'AS', 'MP']);

/** USPS state abbreviations: the 50 states, DC and the armed-forces codes (territories have their own country codes). */
const US_STATE_CODES = new Set(
	(
		'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
		'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AA AE AP'
	).split(' '),
);

const ZIP_PATTERN = /^\d{5}(?:-\d{4})?$/;

const PHONE_PATTERN = /^(?:\(\d{3}\) \d{3}-\d{4}|\d{3}-\d{3}-\d{4}|\d{10})$/;

const US_AND_TERRITORIES =
	'must be the United States or a US territory (US/USA, PR/PRI, GU/GUM, VI/VIR, AS/ASM, MP/MNP; only US addresses are supported)';

function stateRules(address: { country_iso?: string; state_abbr?: string; city?: string }): Refusal[] {
	const { country_iso, state_abbr, city } = address;
	if (country_iso === undefined || state_abbr === undefined || city === undefined) return [];
	const territory = territoryOf({ country_iso, state_abbr });
	const state = state_abbr.toUpperCase();
	if (territory === undefined) {
		return US_STATE_CODES.has(state)
			? []
			: [refuse(`must be a standard two-letter US state abbreviation such as NY or CA, got ${shown(state_abbr)}`, ['state_abbr'])];
	}
	const refusals: Refusal[] = [];
	// A territory's standard abbreviation is its own code (contract: "standard abbreviation for the country").
	if (state !== territory) {
		refusals.push(
			refuse(`must be ${territory}, the standard abbreviation of the territory (country_iso ${country_iso}), got ${shown(state_abbr)}`, ['state_abbr']),
		);
	}
	if (city.toUpperCase() !== state) {
		refusals.push(
			refuse(`must equal state_abbr for a US territory (${territory}): city is ${shown(city)}, state_abbr is ${shown(state_abbr)}`, ['city']),
		);
	}
	return refusals;
}

const addressSchema = fields(
	{
		first_name: requiredText,
		last_name: requiredText,
		address1: requiredText,
		// The contract lists address2 among the fields always sent, but a second line is often empty.
		address2: optionalText,
		city: requiredText,
		state_abbr: requiredText,
		zipcode: requiredText.pipe(matching(ZIP_PATTERN, 'must be ##### or #####-#### (digits and one hyphen, no spaces)')),
		country_iso: requiredText.pipe(
			rule((value) => {
				const code = String(value).toUpperCase();
				return Object.hasOwn(US_COUNTRY_CODES, code) ? code : refuse(`${US_AND_TERRITORIES}, got ${shown(code)}`);
			}),
		),
		phone: requiredText.pipe(
			matching(
				PHONE_PATTERN,
				'must be a 10-digit US number written (###) ###-####, ###-###-#### or ########## (no +1, no spaces inside the digits)',
			),
		),
	},
	'must be an object of address fields',
	stateRules,
)
	// Codes are sent upper case; for a territory city carries the same value as state_abbr (the territory code).
	.transform((address) => {
		const state_abbr = address.state_abbr.toUpperCase();
		return territoryOf(address) === undefined ? { ...address, state_abbr } : { ...address, city: state_abbr, state_abbr };
	});

/** Postal data often writes Puerto Rico as country US, state PR: that is a territory address too. */
function territoryOf(address: { country_iso: string; state_abbr: string }): string | undefined {
	const byCountry = US_COUNTRY_CODES[address.country_iso]?.territory;
	if (byCountry !== undefined) return byCountry;
	const state = address.state_abbr.toUpperCase();
	return TERRITORY_STATE_CODES.has(state) ? state : undefined;
}

export function parseAddressInput(raw: unknown, itemIndex: number): z.output<typeof addressSchema> {
	return parseWith(addressSchema, raw, itemIndex);
}
