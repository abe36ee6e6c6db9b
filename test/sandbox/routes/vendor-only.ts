// The non-vendor client (see auth.ts) may authenticate but is not a vendor user: vendor endpoints refuse it
// with 403. The contract leaves the 403 body undescribed; the sandbox sends `{message}` like the 401.
import type { AuthContext } from '../auth';
import { HttpError } from '../http';

export function requireVendorUser(auth: AuthContext): void {
	if (!auth.vendorUser) throw new HttpError(403, { message: 'This token does not belong to a vendor user' });
}
