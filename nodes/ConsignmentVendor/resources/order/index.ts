import { defineResource } from '../../shared/resource';
import * as cancel from './cancel';

export const order = defineResource({ name: 'order', displayName: 'Order', defaultOperation: 'cancel', summary: 'cancel orders' }, [cancel]);
