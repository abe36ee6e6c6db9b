import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/operationSelector';
import * as get from './get';
import * as getAll from './getAll';

export const operations = operationSelector('consignment', [get.option, getAll.option], 'getAll');

export const fields: INodeProperties[] = [...get.fields, ...getAll.fields];

export const executeByOperation = { get: get.execute, getAll: getAll.execute };
