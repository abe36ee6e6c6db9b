import { defineResource } from '../../shared/resource';
import * as get from './get';
import * as getAll from './getAll';

export const consignment = defineResource({ name: 'consignment', displayName: 'Consignment', defaultOperation: 'getAll', summary: 'read consignments' }, [get, getAll]);
