import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/operationSelector';
import * as get from './get';
import * as update from './update';

export const operations = operationSelector('vendor', [get.option, update.option], 'get');

export const fields: INodeProperties[] = [...get.fields, ...update.fields];

export const executeByOperation = { get: get.execute, update: update.execute };
