import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/operationSelector';
import * as cancel from './cancel';

export const operations = operationSelector('order', [cancel.option], 'cancel');

export const fields: INodeProperties[] = [...cancel.fields];

export const executeByOperation = { cancel: cancel.execute };
