// A valid address as the contract names its fields, and the Address node's parameters that carry one: shared by
// the unit, contract and integration suites (no jest or sandbox here).
import type { IDataObject, INodeParameters } from 'n8n-workflow';

/** One valid US address that no seeded address shares; override fields to break one. */
export function validAddress(overrides: IDataObject = {}): IDataObject {
	return {
		first_name: 'Mary',
		last_name: 'Shelley',
		address1: '5 Main St',
		address2: 'Suite 2',
		city: 'Boston',
		state_abbr: 'MA',
		zipcode: '02108',
		country_iso: 'US',
		phone: '617-555-0199',
		...overrides,
	};
}

/** The Address node's parameter for each contract field. */
const PARAMETER_OF_FIELD = {
	first_name: 'firstName',
	last_name: 'lastName',
	address1: 'address1',
	address2: 'address2',
	city: 'city',
	state_abbr: 'stateAbbr',
	zipcode: 'zipcode',
	country_iso: 'countryIso',
	phone: 'phone',
};

const parameters = (valueOf: (field: string) => INodeParameters[string]): INodeParameters =>
	Object.fromEntries(Object.entries(PARAMETER_OF_FIELD).map(([field, parameter]) => [parameter, valueOf(field)]));

/** Address → Create/Update parameters holding `address`'s values. */
export const addressParameters = (address: IDataObject): INodeParameters => parameters((field) => address[field] as string);

/** Address → Create/Update parameters that read each field from the input item, by its contract name. */
export const ADDRESS_PARAMETERS_FROM_JSON: INodeParameters = parameters((field) => `={{ $json.${field} }}`);
