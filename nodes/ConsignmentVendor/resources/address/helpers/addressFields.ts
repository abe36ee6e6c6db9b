/** The body fields of Address → Create and Address → Update, and how one input item's address is read. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { refusedInput } from '../../../shared/itemRunner';
import { parseAddressInput } from '../../../shared/schemas';

interface AddressFieldSpec {
	displayName: string;
	name: string;
	property: string;
	required: boolean;
	default: string;
	placeholder?: string;
	description: string;
	hint?: string;
}

const FIELDS: AddressFieldSpec[] = [
	{ displayName: 'First Name', name: 'firstName', property: 'first_name', required: true, default: '', description: 'First name of the contact at this address' },
	{ displayName: 'Last Name', name: 'lastName', property: 'last_name', required: true, default: '', description: 'Last name of the contact at this address' },
	{ displayName: 'Address Line 1', name: 'address1', property: 'address1', required: true, default: '', placeholder: 'e.g. 12 W 31st St', description: 'Street address' },
	{ displayName: 'Address Line 2', name: 'address2', property: 'address2', required: false, default: '', placeholder: 'e.g. Suite 400', description: 'Apartment, suite, floor; may be empty (sent as an empty string)' },
	{
		displayName: 'City',
		name: 'city',
		property: 'city',
		required: true,
		default: '',
		description: 'City. For a US territory (PR, GU, VI, AS, MP) the service expects the territory code here, the same as State.',
		hint: 'US territories: City and State must be the same value, e.g. PR and PR',
	},
	{ displayName: 'State', name: 'stateAbbr', property: 'state_abbr', required: true, default: '', placeholder: 'e.g. NY', description: 'Standard state or territory abbreviation (state_abbr)' },
	{
		displayName: 'ZIP Code',
		name: 'zipcode',
		property: 'zipcode',
		required: true,
		default: '',
		placeholder: 'e.g. 10001 or 10001-1234',
		description: 'Five digits, or ZIP+4 as #####-####',
		hint: 'Digits and one hyphen only, no spaces. Keep leading zeros (00901): map it as text, not a number.',
	},
	{
		displayName: 'Country',
		name: 'countryIso',
		property: 'country_iso',
		required: true,
		default: 'US',
		description: 'ISO 3166-1 code (alpha-2 or alpha-3). Only the United States and its territories are supported: US/USA, PR/PRI, GU/GUM, VI/VIR, AS/ASM, MP/MNP.',
	},
	{
		displayName: 'Phone',
		name: 'phone',
		property: 'phone',
		required: true,
		default: '',
		placeholder: 'e.g. (212) 555-0101',
		description: 'A 10-digit US number: (###) ###-####, ###-###-#### or ##########',
		hint: 'No +1 prefix, no spaces inside the digits, area code required',
	},
];

/** The nine contract fields as parameters, shown where the operation's file says (Create, Update). */
export function addressBodyFields(): INodeProperties[] {
	return FIELDS.map((field) => ({
		displayName: field.displayName,
		name: field.name,
		type: 'string' as const,
		required: field.required,
		default: field.default,
		placeholder: field.placeholder,
		description: field.description,
		hint: field.hint,
	}));
}

/**
 * The nine contract fields of one input item, validated and normalised as they are sent (each a JSON string;
 * Address Line 2 may be empty). A violation refuses the item, naming the field.
 */
export function readAddress(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw: IDataObject = {};
	for (const field of FIELDS) raw[field.property] = context.getNodeParameter(field.name, itemIndex, '') as IDataObject[string];
	try {
		return { ...parseAddressInput(raw, itemIndex) };
	} catch (error) {
		throw refusedInput(context.getNode(), itemIndex, error);
	}
}
