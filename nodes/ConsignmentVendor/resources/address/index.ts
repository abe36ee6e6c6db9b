import { defineResource } from '../../shared/resource';
import * as create from './create';
import * as deleteAddress from './delete';
import * as getAll from './getAll';
import * as update from './update';

export const address = defineResource({ name: 'address', displayName: 'Address', defaultOperation: 'getAll', summary: 'manage addresses' }, [create, update, deleteAddress, getAll]);
