// Ambiguous writes on n8n 2.x's error shape (NodeApiError keeps the axios error as `cause`): see ambiguous-writes.cases.ts.
import { ambiguousWriteCases } from './ambiguous-writes.cases';

ambiguousWriteCases(() => undefined);
