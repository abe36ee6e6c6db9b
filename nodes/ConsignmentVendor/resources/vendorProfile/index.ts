import { defineResource } from '../../shared/resource';
import * as get from './get';
import * as update from './update';

export const vendor = defineResource({ name: 'vendor', displayName: 'Vendor', defaultOperation: 'get' }, [get, update]);
