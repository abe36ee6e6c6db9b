// Valid designer, condition and taxon permalink values. The contract says they exist but does not list them;
// these are the sandbox's (GET /__sandbox/catalog). Matching is exact and case-sensitive.
import type { CatalogSnapshot } from './types';

export const DESIGNERS = [
	'Bottega Veneta',
	'Cartier',
	'Chanel',
	'Gucci',
	'Hermès',
	'Louis Vuitton',
	'Omega',
	'Prada',
	'Rolex',
	'Saint Laurent',
] as const;

export const CONDITIONS = ['Pristine', 'Excellent', 'Very Good', 'Good', 'Fair'] as const;

export const TAXON_PERMALINKS = [
	'women/handbags/backpacks',
	'women/handbags/clutches',
	'women/handbags/shoulder-bags',
	'women/handbags/totes',
	'women/shoes/pumps',
	'women/jewelry/rings',
	'men/accessories/belts',
	'men/shoes/sneakers',
	'watches/strap',
	'watches/bracelet',
] as const;

/** Taxons under this prefix need a `upc`. */
export const WATCH_TAXON_PREFIX = 'watches/';

export function catalogSnapshot(): CatalogSnapshot {
	return {
		designers: [...DESIGNERS],
		conditions: [...CONDITIONS],
		taxonPermalinks: [...TAXON_PERMALINKS],
	};
}

export const isDesigner = (v: string): boolean => (DESIGNERS as readonly string[]).includes(v);
export const isCondition = (v: string): boolean => (CONDITIONS as readonly string[]).includes(v);
export const isTaxonPermalink = (v: string): boolean => (TAXON_PERMALINKS as readonly string[]).includes(v);
