import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/operationSelector';
import * as create from './create';
import * as deleteAddress from './delete';
import * as getAll from './getAll';
import * as update from './update';

export const operations = operationSelector('address', [create.option, deleteAddress.option, getAll.option, update.option], 'getAll');

export const fields: INodeProperties[] = [...create.fields, ...update.fields, ...deleteAddress.fields, ...getAll.fields];

export const executeByOperation = { create: create.execute, update: update.execute, delete: deleteAddress.execute, getAll: getAll.execute };
