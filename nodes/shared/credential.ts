/**
 * The credential every request of the package authenticates with. Calling `httpRequestWithAuthentication` with
 * it is what applies the token exchange and n8n's refresh-and-retry on a 401.
 */
export const CREDENTIAL_TYPE = 'consignmentVendorApi';
